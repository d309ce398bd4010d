#include "bench/overlap.h"

#include <algorithm>
#include <cassert>
#include <cctype>
#include <cmath>
#include <unordered_map>
#include <unordered_set>

#include "core/hash.h"
#include "core/json_util.h"
#include "core/scanner.h"
#include "core/strings.h"

namespace regrapht::bench {
namespace {

std::string Normalize(const std::string& src) {
  std::string code = scan::BlankCommentsAndLiterals(src);
  std::string out;
  for (char c : code) {
    if (!std::isspace(static_cast<unsigned char>(c))) out += c;
  }
  return out;
}

std::string StripNumberPrefix(const std::string& name) {
  size_t i = 0;
  while (i < name.size() && std::isdigit(static_cast<unsigned char>(name[i]))) ++i;
  if (i > 0 && i < name.size() && name[i] == '_') return name.substr(i + 1);
  return name;
}

}  // namespace

Result<std::vector<OverlapItem>> CollectItems(const fs::path& root, const std::string& set) {
  std::vector<OverlapItem> items;
  std::error_code ec;
  if (!fs::exists(root, ec)) return Status::NotFound(root.string() + ": does not exist");
  std::vector<fs::path> dirs;
  for (auto it = fs::recursive_directory_iterator(root, ec);
       it != fs::recursive_directory_iterator(); ++it) {
    if (it->is_regular_file() && it->path().filename() == "problem.json")
      dirs.push_back(it->path().parent_path());
  }
  std::sort(dirs.begin(), dirs.end());
  for (const auto& d : dirs) {
    RG_ASSIGN_OR_RETURN(Json j, ReadJsonFile(d / "problem.json"));
    OverlapItem item;
    item.set = set;
    item.dir = d;
    item.name = j.value("name", d.filename().string());
    item.function = j.value("function", "");
    auto ref = ReadInputFile(d / "reference.cpp");
    if (ref.ok()) item.source_hash = HashHex(Normalize(*ref));
    for (const char* f : {"reference.cpp", "solution.cu", "kernel.cu"}) {
      if (fs::is_regular_file(d / f, ec)) item.code_files.push_back(f);
    }
    if (fs::exists(d / "trajectory.json", ec)) {
      RG_ASSIGN_OR_RETURN(Json t, ReadJsonFile(d / "trajectory.json"));
      const Json* steps = t.contains("steps") ? &t["steps"] : nullptr;
      if (steps == nullptr || !steps->is_array()) {
        return Status::InvalidArgument((d / "trajectory.json").string() +
                                       ": steps: expected a list");
      }
      for (size_t i = 0; i < steps->size(); ++i) {
        const Json& step = (*steps)[i];
        if (!step.is_object() || !step.contains("code") || !step["code"].is_string()) {
          return Status::InvalidArgument((d / "trajectory.json").string() + ": steps[" +
                                         std::to_string(i) + "].code: expected a file name");
        }
        std::string code = step["code"].get<std::string>();
        if (!fs::is_regular_file(d / code, ec)) {
          return Status::NotFound((d / "trajectory.json").string() + ": steps[" +
                                  std::to_string(i) + "].code: \"" + code + "\" does not exist");
        }
        if (std::find(item.code_files.begin(), item.code_files.end(), code) ==
            item.code_files.end()) {
          item.code_files.push_back(code);
        }
      }
    }
    items.push_back(std::move(item));
  }
  return items;
}

std::vector<Overlap> FindOverlaps(const std::vector<OverlapItem>& first,
                                  const std::vector<OverlapItem>& second) {
  std::vector<Overlap> out;
  for (const auto& a : first) {
    for (const auto& b : second) {
      if (ToLower(a.name) == ToLower(b.name))
        out.push_back({a, b, "name"});
      else if (!a.function.empty() && ToLower(a.function) == ToLower(b.function))
        out.push_back({a, b, "function"});
      else if (!a.source_hash.empty() && a.source_hash == b.source_hash)
        out.push_back({a, b, "source"});
    }
  }
  return out;
}

std::vector<Overlap> FindNamed(const std::vector<OverlapItem>& items,
                               const std::set<std::string>& names) {
  std::set<std::string> lower;
  for (const auto& n : names) {
    lower.insert(ToLower(n));
    lower.insert(ToLower(StripNumberPrefix(n)));
  }
  std::vector<Overlap> out;
  for (const auto& it : items) {
    if (lower.count(ToLower(it.name)) || lower.count(ToLower(it.function))) {
      OverlapItem named;
      named.set = "pareval";
      named.name = lower.count(ToLower(it.name)) ? it.name : it.function;
      out.push_back({it, named, "pareval"});
    }
  }
  return out;
}

Result<std::set<std::string>> ReadNames(const fs::path& file) {
  RG_ASSIGN_OR_RETURN(std::string text, ReadInputFile(file));
  std::set<std::string> names;
  for (const auto& line : SplitLines(text)) {
    std::string t(Trim(line));
    if (t.empty() || t[0] == '#') continue;
    names.insert(t);
  }
  return names;
}

// ---------------------------------------------------------------------------
// Near duplicates

namespace {

enum class TokenClass { kKeep, kDrop, kFloat, kInt, kIdentifier };

const std::unordered_set<std::string_view>& KeptNames() {
  static const auto* names = new std::unordered_set<std::string_view>{
      // C++ keywords (types and dropped qualifiers are classified apart).
      "alignas", "alignof", "asm", "auto", "bool", "break", "case", "catch", "class", "const_cast",
      "continue", "decltype", "default", "delete", "do", "dynamic_cast", "else", "enum", "explicit",
      "extern", "false", "for", "friend", "goto", "if", "mutable", "namespace", "new", "noexcept",
      "nullptr", "operator", "private", "protected", "public", "register", "reinterpret_cast",
      "return", "sizeof", "static_assert", "static_cast", "struct", "switch", "template", "this",
      "thread_local", "throw", "true", "try", "typedef", "typename", "union", "using", "virtual",
      "void", "while",
      // CUDA built-in variables.
      "threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize",
      // Standard library names that are not the author's choice.
      "std", "vector", "size", "array", "complex", "min", "max", "swap", "numeric_limits",
      // Math functions (CUDA device and <cmath>).
      "sqrt", "sqrtf", "rsqrt", "rsqrtf", "cbrt", "cbrtf", "exp", "expf", "exp2", "exp2f", "expm1",
      "expm1f", "log", "logf", "log2", "log2f", "log10", "log10f", "log1p", "log1pf", "pow", "powf",
      "sin", "sinf", "cos", "cosf", "tan", "tanf", "sincos", "sincosf", "asin", "asinf", "acos",
      "acosf", "atan", "atanf", "atan2", "atan2f", "sinh", "sinhf", "cosh", "coshf", "tanh",
      "tanhf", "erf", "erff", "erfc", "erfcf", "fabs", "fabsf", "abs", "fmin", "fminf", "fmax",
      "fmaxf", "floor", "floorf", "ceil", "ceilf", "round", "roundf", "lround", "trunc", "truncf",
      "fma", "fmaf", "fmod", "fmodf", "hypot", "hypotf", "copysign", "copysignf", "isnan", "isinf",
      "isfinite", "rint", "rintf", "norm", "normf"};
  return *names;
}

TokenClass ClassifyName(std::string_view t) {
  static const std::unordered_set<std::string_view> kFloat = {"float", "double", "half", "__half",
                                                              "__nv_bfloat16"};
  static const std::unordered_set<std::string_view> kInt = {
      "int",       "long",     "short",    "char",      "signed",  "unsigned", "size_t",
      "ptrdiff_t", "int8_t",   "int16_t",  "int32_t",   "int64_t", "uint8_t",  "uint16_t",
      "uint32_t",  "uint64_t", "intptr_t", "uintptr_t", "ssize_t", "uint",     "ulong"};
  static const std::unordered_set<std::string_view> kDropped = {
      "const",      "volatile",        "__restrict__", "__restrict", "restrict", "inline",
      "__inline__", "__forceinline__", "__noinline__", "static",     "constexpr"};
  if (kFloat.count(t)) return TokenClass::kFloat;
  if (kInt.count(t)) return TokenClass::kInt;
  if (kDropped.count(t)) return TokenClass::kDrop;
  if (KeptNames().count(t)) return TokenClass::kKeep;
  // CUDA qualifiers and intrinsics (__global__, __syncthreads, __shfl_down_sync,
  // __ldg), the runtime API (cudaMalloc, cudaMemcpyHostToDevice), atomics,
  // make_float4.
  if (StartsWith(t, "__") || StartsWith(t, "cuda") || StartsWith(t, "atomic") ||
      StartsWith(t, "make_")) {
    return TokenClass::kKeep;
  }
  // Vector types: float4, int2, uchar4, double2 ...
  if (t.size() >= 4 && t.back() >= '1' && t.back() <= '4') {
    static const std::unordered_set<std::string_view> kBases = {
        "char",  "uchar",    "short",     "ushort", "int",    "uint", "long",
        "ulong", "longlong", "ulonglong", "float",  "double", "half"};
    if (kBases.count(t.substr(0, t.size() - 1))) return TokenClass::kKeep;
  }
  return TokenClass::kIdentifier;
}

// The top-level declarations of device code in `tokens` (raw code tokens).
std::vector<std::string> DeviceCode(const std::vector<std::string>& tokens) {
  auto starts_device = [](const std::string& t) {
    return t == "__global__" || t == "__device__" || t == "__constant__";
  };
  std::vector<std::string> out;
  int depth = 0;
  size_t i = 0;
  while (i < tokens.size()) {
    const std::string& t = tokens[i];
    if (depth == 0 && (starts_device(t) || t == "template")) {
      // The declaration runs to a ';' outside braces or to the '}' that closes its body.
      size_t j = i;
      int d = 0;
      bool body = false, device = false;
      for (; j < tokens.size(); ++j) {
        if (starts_device(tokens[j])) device = true;
        if (tokens[j] == "{") {
          ++d;
          body = true;
        } else if (tokens[j] == "}") {
          if (--d == 0 && body) break;
        } else if (tokens[j] == ";" && d == 0) {
          break;
        }
      }
      size_t end = std::min(j + 1, tokens.size());
      if (device) out.insert(out.end(), tokens.begin() + i, tokens.begin() + end);
      i = end;
      continue;
    }
    if (t == "{")
      ++depth;
    else if (t == "}")
      --depth;
    ++i;
  }
  return out;
}

bool IsNumber(std::string_view t) {
  return !t.empty() &&
         (std::isdigit(static_cast<unsigned char>(t[0])) ||
          (t[0] == '.' && t.size() > 1 && std::isdigit(static_cast<unsigned char>(t[1]))));
}

// Hash of a kept token, and of the n-th distinct identifier of a k-gram.
uint64_t TokenHash(const MaskedToken& t) { return Hash64(t.text, 0x6f76); }
uint64_t PlaceholderHash(size_t n) { return Hash64(std::string_view(), 0x1d00 + n); }

}  // namespace

std::vector<MaskedToken> MaskTokens(std::string_view source, bool device_code_only) {
  // Code tokens outside directives (core/scanner.h): no comments, literals
  // or preprocessor lines.
  std::vector<std::string> raw;
  const scan::ScannedSource scanned(source);
  for (size_t i = 0; i < scanned.tokens().size(); ++i) {
    scan::TokenKind kind = scanned.tokens()[i].kind;
    if (!scanned.IsCode(i) || kind == scan::TokenKind::kString || kind == scan::TokenKind::kChar) continue;
    raw.emplace_back(scanned.Text(i));
  }
  if (device_code_only) {
    std::vector<std::string> device = DeviceCode(raw);
    if (!device.empty()) raw = std::move(device);
  }
  std::vector<MaskedToken> out;
  out.reserve(raw.size());
  for (std::string& t : raw) {
    if (t == "{" || t == "}") continue;
    if (IsNumber(t)) {
      out.push_back({false, "N"});
      continue;
    }
    if (t.empty() || !(std::isalpha(static_cast<unsigned char>(t[0])) || t[0] == '_')) {
      out.push_back({false, std::move(t)});
      continue;
    }
    switch (ClassifyName(t)) {
      case TokenClass::kDrop:
        break;
      case TokenClass::kFloat:
        out.push_back({false, "FLT"});
        break;
      case TokenClass::kInt:
        out.push_back({false, "INT"});
        break;
      case TokenClass::kIdentifier:
        out.push_back({true, std::move(t)});
        break;
      default:
        out.push_back({false, std::move(t)});
        break;
    }
  }
  return out;
}

std::vector<uint64_t> Fingerprints(const std::vector<MaskedToken>& tokens, int k, int window) {
  assert(k >= 1 && window >= 1);
  size_t kk = static_cast<size_t>(k);
  if (tokens.size() < kk) return {};
  // Per token: the hash of a kept token, or the identifier's index in this file.
  std::unordered_map<std::string_view, uint32_t> ids;
  std::vector<uint64_t> value(tokens.size());
  std::vector<int64_t> ident(tokens.size(), -1);
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].identifier) {
      ident[i] = ids.emplace(tokens[i].text, static_cast<uint32_t>(ids.size())).first->second;
    } else {
      value[i] = TokenHash(tokens[i]);
    }
  }
  std::vector<uint64_t> grams(tokens.size() - kk + 1);
  std::vector<uint64_t> buf(kk);
  std::vector<int64_t> seen;  // identifiers of this k-gram in order of first occurrence
  for (size_t s = 0; s < grams.size(); ++s) {
    seen.clear();
    for (size_t j = 0; j < kk; ++j) {
      int64_t id = ident[s + j];
      if (id < 0) {
        buf[j] = value[s + j];
        continue;
      }
      size_t n = std::find(seen.begin(), seen.end(), id) - seen.begin();
      if (n == seen.size()) seen.push_back(id);
      buf[j] = PlaceholderHash(n);
    }
    grams[s] =
        Hash64(std::string_view(reinterpret_cast<const char*>(buf.data()), kk * sizeof(uint64_t)));
  }
  std::vector<uint64_t> out;
  size_t w = static_cast<size_t>(window);
  if (w <= 1) {
    out = grams;
  } else {
    // Winnowing: the minimum of every window of w consecutive k-gram hashes.
    size_t last = grams.size() < w ? 1 : grams.size() - w + 1;
    for (size_t s = 0; s < last; ++s) {
      size_t e = std::min(s + w, grams.size());
      out.push_back(*std::min_element(grams.begin() + s, grams.begin() + e));
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

namespace {

// A code file of an item, with its winnowed fingerprints.
struct CodeFile {
  size_t item;  // index into its side's items
  const std::string* name;
  std::vector<uint64_t> fingerprints;
  double weight = 0;  // summed weight of its fingerprints (FingerprintWeights)
};

// The code files of `items`, in order, fingerprinted.
Status ReadCodeFiles(const std::vector<OverlapItem>& items, const NearDuplicateOptions& options,
                     std::vector<CodeFile>* files) {
  for (size_t i = 0; i < items.size(); ++i) {
    for (const std::string& f : items[i].code_files) {
      RG_ASSIGN_OR_RETURN(std::string src, ReadInputFile(items[i].dir / f));
      bool cuda = fs::path(f).extension() == ".cu";
      files->push_back({i, &f, Fingerprints(MaskTokens(src, cuda), options.kgram, options.window)});
    }
  }
  return Status::Ok();
}

// 1. Document frequency over items (both sides), and the weights: each
// fingerprint's log(1 + items / df), and each file's sum of them.
std::unordered_map<uint64_t, double> FingerprintWeights(size_t first_items, size_t second_items,
                                                        std::vector<CodeFile>* fa, std::vector<CodeFile>* fb) {
  std::unordered_map<uint64_t, double> weight;
  std::unordered_map<uint64_t, uint32_t> df;
  auto count = [&](const std::vector<CodeFile>& files, size_t num_items) {
    std::vector<std::vector<uint64_t>> per_item(num_items);
    for (const CodeFile& f : files)
      per_item[f.item].insert(per_item[f.item].end(), f.fingerprints.begin(), f.fingerprints.end());
    for (auto& v : per_item) {
      std::sort(v.begin(), v.end());
      v.erase(std::unique(v.begin(), v.end()), v.end());
      for (uint64_t h : v) ++df[h];
    }
  };
  count(*fa, first_items);
  count(*fb, second_items);
  double n = static_cast<double>(first_items + second_items);
  weight.reserve(df.size());
  for (auto [h, d] : df) weight[h] = std::log(1.0 + n / d);
  for (auto* files : {fa, fb}) {
    for (CodeFile& f : *files) {
      for (uint64_t h : f.fingerprints) f.weight += weight[h];
    }
  }
  return weight;
}

}  // namespace

Result<NearDuplicateReport> ScoreNearDuplicates(const std::vector<OverlapItem>& first,
                                                const std::vector<OverlapItem>& second,
                                                const NearDuplicateOptions& options) {
  if (options.kgram < 1 || options.window < 1) {
    return Status::InvalidArgument("near duplicates: k-gram size and window must be at least 1");
  }
  std::vector<CodeFile> fa, fb;
  RG_RETURN_IF_ERROR(ReadCodeFiles(first, options, &fa));
  RG_RETURN_IF_ERROR(ReadCodeFiles(second, options, &fb));
  std::unordered_map<uint64_t, double> weight = FingerprintWeights(first.size(), second.size(), &fa, &fb);

  // 2. Shared weight of every file pair through an inverted index of `second`.
  std::unordered_map<uint64_t, std::vector<uint32_t>> postings;
  for (uint32_t j = 0; j < fb.size(); ++j) {
    for (uint64_t h : fb[j].fingerprints) postings[h].push_back(j);
  }
  std::vector<PairScore> best(first.size() * second.size());
  for (size_t a = 0; a < first.size(); ++a) {
    for (size_t b = 0; b < second.size(); ++b) best[a * second.size() + b] = {a, b, "", "", 0.0, 0};
  }
  std::vector<double> shared(fb.size(), 0.0);
  std::vector<uint32_t> count(fb.size(), 0);
  std::vector<uint32_t> touched;
  for (const CodeFile& f : fa) {
    for (uint64_t h : f.fingerprints) {
      auto it = postings.find(h);
      if (it == postings.end()) continue;
      double w = weight[h];
      for (uint32_t j : it->second) {
        if (count[j]++ == 0) touched.push_back(j);
        shared[j] += w;
      }
    }
    std::sort(touched.begin(), touched.end());  // file order: ties keep the first file pair
    for (uint32_t j : touched) {
      double s = shared[j] / (f.weight + fb[j].weight - shared[j]);
      PairScore& p = best[f.item * second.size() + fb[j].item];
      if (s > p.similarity) {
        p.similarity = s;
        p.file_first = *f.name;
        p.file_second = *fb[j].name;
        p.shared = count[j];
      }
      shared[j] = 0;
      count[j] = 0;
    }
    touched.clear();
  }
  std::stable_sort(best.begin(), best.end(), [](const PairScore& x, const PairScore& y) {
    return x.similarity > y.similarity;
  });
  NearDuplicateReport report;
  report.pairs = std::move(best);
  report.files_first = fa.size();
  report.files_second = fb.size();
  return report;
}

double ScoreQuantile(const NearDuplicateReport& report, double q) {
  if (report.pairs.empty()) return 0;
  // pairs are sorted descending: the q quantile is at rank ceil(q * n) from the bottom.
  size_t n = report.pairs.size();
  size_t rank = static_cast<size_t>(std::ceil(std::clamp(q, 0.0, 1.0) * n));
  if (rank == 0) rank = 1;
  return report.pairs[n - rank].similarity;
}

}  // namespace regrapht::bench
