#include "bench/overlap_meaning.h"

#include <algorithm>
#include <set>

#include "core/hash.h"
#include "core/strings.h"

namespace regrapht::bench {
namespace {

bool IsIntegerType(ScalarType t) {
  switch (t) {
    case ScalarType::kInt8:
    case ScalarType::kInt16:
    case ScalarType::kInt32:
    case ScalarType::kInt64:
    case ScalarType::kUInt8:
    case ScalarType::kUInt32:
    case ScalarType::kUInt64:
    case ScalarType::kSizeT: return true;
    default: return false;
  }
}

// Whether a benchmark argument passed as `b` can bind a corpus parameter
// passed as `c`.
bool PassCompatible(const ArgSpec& b, const ArgSpec& c) {
  if (b.pass == c.pass) return true;
  return b.pass == ArgPass::kVector && c.pass == ArgPass::kPointer;
}

// The expression that passes benchmark argument `b` as corpus parameter `c`.
std::string BindExpr(const ProblemSpec& bs, const ArgSpec& b, const ArgSpec& c) {
  const std::string el = bs.ElementCpp(b.type);
  const bool b_const = b.is_const && b.role == ArgRole::kInput;
  const bool c_const = c.is_const && c.role == ArgRole::kInput;
  if (b.pass == ArgPass::kVector && c.pass == ArgPass::kPointer) {
    if (b_const && !c_const) return "const_cast<" + el + "*>(" + b.name + ".data())";
    return b.name + ".data()";
  }
  if (b_const && !c_const && c.pass == ArgPass::kPointer) return "const_cast<" + el + "*>(" + b.name + ")";
  if (b_const && !c_const && c.pass == ArgPass::kVector) return "const_cast<std::vector<" + el + ">&>(" + b.name + ")";
  return b.name;
}

bool SameReturn(const ProblemSpec& a, const ProblemSpec& b) {
  if (!a.returns || !b.returns) return !a.returns && !b.returns;
  if (a.returns->is_struct() || b.returns->is_struct()) return false;
  return *a.returns->scalar == *b.returns->scalar;
}

// Each kind's argument indices, in order. False if an argument has no kind.
bool GroupByKind(const ProblemSpec& s, std::map<std::string, std::vector<size_t>>* groups) {
  for (size_t i = 0; i < s.args.size(); ++i) {
    std::string k = ParamKind(s, s.args[i]);
    if (k.empty()) return false;
    (*groups)[k].push_back(i);
  }
  return true;
}

}  // namespace

std::string ParamKind(const ProblemSpec& spec, const ArgSpec& arg) {
  if (arg.type.is_struct()) return "";
  (void)spec;
  const ScalarType t = *arg.type.scalar;
  const std::string type(ScalarTypeName(t));
  switch (arg.role) {
    case ArgRole::kSize: return "int";
    case ArgRole::kScalar:
      if (IsIntegerType(t)) return "int";
      if (t == ScalarType::kFloat || t == ScalarType::kDouble) return "real";
      return "scalar:" + type;
    case ArgRole::kInput: return "in:" + type;
    case ArgRole::kOutput: return "out:" + type;
    case ArgRole::kInOut: return "inout:" + type;
  }
  return "";
}

std::string ArgMapping::Text(const ProblemSpec& bench, const ProblemSpec& corpus) const {
  std::string s;
  for (size_t j = 0; j < corpus_arg.size(); ++j) {
    if (j) s += ", ";
    s += corpus.args[j].name + "<-" + bench.args[corpus_arg[j]].name;
  }
  return s;
}

std::vector<ArgMapping> ArgMappings(const ProblemSpec& bench, const ProblemSpec& corpus, size_t max_mappings) {
  std::vector<ArgMapping> out;
  if (max_mappings == 0 || !SameReturn(bench, corpus) || bench.args.size() != corpus.args.size()) return out;
  std::map<std::string, std::vector<size_t>> bg, cg;
  if (!GroupByKind(bench, &bg) || !GroupByKind(corpus, &cg)) return out;
  if (bg.size() != cg.size()) return out;
  for (const auto& [kind, idx] : bg) {
    auto it = cg.find(kind);
    if (it == cg.end() || it->second.size() != idx.size()) return out;
  }
  // Candidate orders of each kind's benchmark arguments: the identity first,
  // then one kind at a time permuted (groups of at most three).
  std::vector<std::map<std::string, std::vector<size_t>>> orders = {bg};
  for (const auto& [kind, idx] : bg) {
    if (idx.size() < 2 || idx.size() > 3) continue;
    std::vector<size_t> perm = idx;
    while (std::next_permutation(perm.begin(), perm.end())) {
      auto o = bg;
      o[kind] = perm;
      orders.push_back(std::move(o));
    }
  }
  for (const auto& order : orders) {
    if (out.size() >= max_mappings) break;
    ArgMapping m;
    m.corpus_arg.resize(corpus.args.size());
    bool ok = true;
    for (const auto& [kind, cidx] : cg) {
      const auto& bidx = order.at(kind);
      for (size_t r = 0; r < cidx.size(); ++r) {
        m.corpus_arg[cidx[r]] = bidx[r];
        ok = ok && PassCompatible(bench.args[bidx[r]], corpus.args[cidx[r]]);
      }
    }
    if (ok) out.push_back(std::move(m));
  }
  return out;
}

std::string AdapterSource(const Problem& bench, const Problem& corpus, const ArgMapping& mapping) {
  std::string hash_lines, body;
  bool continued = false;
  for (const std::string& line : SplitLines(corpus.reference_source)) {
    std::string_view t = Trim(line);
    const bool directive = continued || (!t.empty() && t[0] == '#');
    (directive ? hash_lines : body) += line + "\n";
    continued = directive && !t.empty() && t.back() == '\\';
  }
  std::string s =
      "// Generated by `suite overlap --meaning`: corpus kernel " + corpus.spec.name +
      " standing in for benchmark problem " + bench.spec.name + ".\n"
      "#include <array>\n#include <complex>\n#include <cstddef>\n#include <cstdint>\n#include <string>\n"
      "#include <vector>\n" +
      hash_lines + "namespace rg_twin {\n" + body + "\n}  // namespace rg_twin\n\n" + bench.spec.Signature() +
      " {\n  return rg_twin::" + corpus.spec.function + "(";
  for (size_t j = 0; j < mapping.corpus_arg.size(); ++j) {
    if (j) s += ", ";
    const ArgSpec& b = bench.spec.args[mapping.corpus_arg[j]];
    s += BindExpr(bench.spec, b, corpus.spec.args[j]);
  }
  return s + ");\n}\n";
}

namespace {

constexpr const char* kCacheVersion = "overlap-behaviour-v1";

// The benchmark's spec and reference, and the adapter (the corpus reference
// and the mapping) decide the outcome.
std::string CacheKey(const Problem& b, const std::string& adapter, double time_limit_s) {
  Hasher h;
  h.Add(kCacheVersion).Add(b.spec_text).Add(b.reference_source).Add(adapter);
  h.Add(static_cast<int64_t>(time_limit_s * 1000));
  return h.Hex();
}

struct RunResult {
  std::string verdict, detail;
  bool cached = false;
};

Result<RunResult> RunOne(const Problem& b, const Problem& c, const ArgMapping& m, Verifier* verifier,
                         const BehaviourOptions& o) {
  const std::string adapter = AdapterSource(b, c, m);
  const std::string key = CacheKey(b, adapter, o.time_limit_s);
  const fs::path file = o.cache_dir.empty() ? fs::path() : o.cache_dir / "overlap-behaviour" / key.substr(0, 2) / key;
  if (!file.empty()) {
    auto text = ReadFile(file);
    if (text.ok()) {
      auto parts = Split(*text, '\t');
      if (parts.size() >= 2) return RunResult{parts[0], parts[1], true};
    }
  }
  Problem p = b;
  p.spec.time_limit_s = o.time_limit_s;
  RG_ASSIGN_OR_RETURN(VerifyResult r, verifier->Verify(p, adapter));
  RunResult out{std::string(VerdictName(r.verdict)), r.detail, false};
  std::replace(out.detail.begin(), out.detail.end(), '\t', ' ');
  std::replace(out.detail.begin(), out.detail.end(), '\n', ' ');
  if (!file.empty()) {
    std::error_code ec;
    fs::create_directories(file.parent_path(), ec);
    RG_RETURN_IF_ERROR(WriteFileAtomic(file, out.verdict + "\t" + out.detail));
  }
  return out;
}

}  // namespace

Result<BehaviourReport> CompareBehaviour(const std::vector<Problem>& bench, const std::vector<Problem>& corpus,
                                         Verifier* verifier, const BehaviourOptions& options,
                                         const std::function<void(size_t, size_t)>& progress) {
  struct Todo {
    size_t i, j;
    std::vector<ArgMapping> mappings;
  };
  std::vector<Todo> todo;
  for (size_t i = 0; i < bench.size(); ++i) {
    for (size_t j = 0; j < corpus.size(); ++j) {
      auto m = ArgMappings(bench[i].spec, corpus[j].spec, options.max_mappings);
      if (!m.empty()) todo.push_back({i, j, std::move(m)});
    }
  }
  BehaviourReport report;
  for (size_t t = 0; t < todo.size(); ++t) {
    const Todo& d = todo[t];
    BehaviourPair pair;
    pair.first = d.i;
    pair.second = d.j;
    pair.cached = true;
    for (const ArgMapping& m : d.mappings) {
      RG_ASSIGN_OR_RETURN(RunResult r, RunOne(bench[d.i], corpus[d.j], m, verifier, options));
      ++pair.mappings_tried;
      ++report.runs;
      if (r.cached) ++report.cached_runs;
      pair.cached = pair.cached && r.cached;
      const bool equal = r.verdict == VerdictName(Verdict::kCorrect);
      if (pair.mappings_tried == 1 || equal) {
        pair.mapping = m.Text(bench[d.i].spec, corpus[d.j].spec);
        pair.verdict = r.verdict;
        pair.detail = r.detail;
      }
      if (equal) {
        pair.equal = true;
        break;
      }
    }
    report.pairs.push_back(std::move(pair));
    if (progress) progress(t + 1, todo.size());
  }
  return report;
}

Result<std::map<std::pair<std::string, std::string>, ExplainedPair>> ReadExplained(const fs::path& file) {
  RG_ASSIGN_OR_RETURN(std::string text, ReadFile(file));
  std::map<std::pair<std::string, std::string>, ExplainedPair> out;
  int line_no = 0;
  for (const std::string& line : SplitLines(text)) {
    ++line_no;
    std::string_view t = Trim(line);
    if (t.empty() || t[0] == '#') continue;
    auto where = [&] { return file.string() + ":" + std::to_string(line_no) + ": "; };
    auto f = Split(line, '\t');
    if (f.size() != 5) {
      return Status::InvalidArgument(where() + "want 5 tab-separated fields (benchmark, corpus, verdict, why, " +
                                     "action), got " + std::to_string(f.size()));
    }
    for (auto& x : f) x = std::string(Trim(x));
    for (size_t k = 0; k < f.size(); ++k) {
      if (f[k].empty()) return Status::InvalidArgument(where() + "field " + std::to_string(k + 1) + " is empty");
    }
    if (f[2] != "twin" && f[2] != "distinct") {
      return Status::InvalidArgument(where() + "verdict '" + f[2] + "': want twin or distinct");
    }
    ExplainedPair p{f[0], f[1], f[2], f[3], f[4], line_no};
    auto [it, fresh] = out.emplace(std::make_pair(f[0], f[1]), p);
    if (!fresh) {
      return Status::InvalidArgument(where() + "pair " + f[0] + " / " + f[1] + " already explained on line " +
                                     std::to_string(it->second.line));
    }
  }
  return out;
}

}  // namespace regrapht::bench
