#include "cli/commands_overlap.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include <fmt/format.h>

#include "bench/overlap_meaning.h"
#include "bench/overlap_structure.h"
#include "cli/number_flags.h"
#include "cli/verify_flags.h"
#include "core/fs.h"
#include "core/hash.h"
#include "seed/ast.h"

namespace regrapht::cli {
namespace {

constexpr const char* kStructureCacheVersion = "overlap-structure-v2";

Result<std::vector<Problem>> LoadAll(const std::vector<bench::OverlapItem>& items) {
  std::vector<Problem> out;
  for (const auto& it : items) {
    RG_ASSIGN_OR_RETURN(Problem p, LoadProblem(it.dir));
    out.push_back(std::move(p));
  }
  return out;
}

// Each problem's structure, from the cache (CacheDir()/overlap-structure,
// by content) or parsed.
Result<std::vector<bench::LoopStructure>> Structures(const std::vector<Problem>& problems, size_t* parsed) {
  std::vector<bench::LoopStructure> out;
  const fs::path dir = CacheDir() / "overlap-structure";
  for (const Problem& p : problems) {
    Hasher h;
    h.Add(kStructureCacheVersion).Add(p.spec.function).Add(p.reference_source);
    const fs::path file = dir / h.Hex();
    if (auto text = ReadFile(file); text.ok()) {
      if (auto s = bench::ParseStructure(*text); s.ok()) {
        out.push_back(std::move(*s));
        continue;
      }
    }
    auto s = bench::StructureOf(p.reference_source, p.spec.function, (p.dir / "reference.cpp").string());
    if (!s.ok()) return s.status();
    ++*parsed;
    std::error_code ec;
    fs::create_directories(dir, ec);
    RG_RETURN_IF_ERROR(WriteFileAtomic(file, bench::SerializeStructure(*s)));
    out.push_back(std::move(*s));
  }
  return out;
}

struct Flag {
  bool behaviour = false;
  std::string mapping;
  double structure = -1;  // the similarity where it is at or above the threshold
};

// Runs each corpus reference with a compatible signature on the benchmark's
// tests (sandboxed, cached) and compares the outputs.
Result<bench::BehaviourReport> CompareBehaviourOf(const MeaningArgs& args, const std::vector<Problem>& bench,
                                                  const std::vector<Problem>& corpus) {
  VerifyOptions vo;
  vo.run_mode = VerifyOptions::RunMode::kCpuCandidate;
  vo.timing = false;
  vo.edge_cases = false;
  vo.run_memory_bytes = int64_t{4} << 30;
  RG_RETURN_IF_ERROR(RequireSandbox(vo));
  std::unique_ptr<Verifier> verifier = NewVerifier(vo);
  bench::BehaviourOptions bo;
  bo.max_mappings = args.mappings;
  bo.time_limit_s = args.run_timeout_s;
  bo.cache_dir = CacheDir();
  auto progress = [](size_t done, size_t total) {
    if (done % 20 == 0 || done == total) std::fprintf(stderr, "meaning: %zu/%zu compatible pairs run\n", done, total);
  };
  return bench::CompareBehaviour(bench, corpus, verifier.get(), bo, progress);
}

using ExplainedPairs = std::map<std::pair<std::string, std::string>, bench::ExplainedPair>;

// Prints each flagged pair, explained or not (into `flagged` as JSON, and
// its names into `seen`); returns the unexplained ones.
int PrintFlags(const std::map<std::pair<size_t, size_t>, Flag>& flags, const std::vector<Problem>& bench,
               const std::vector<Problem>& corpus, const std::vector<bench::OverlapItem>& bench_items,
               const std::vector<bench::OverlapItem>& corpus_items, const ExplainedPairs& explained,
               std::set<std::pair<std::string, std::string>>* seen, OrderedJson* flagged) {
  int unexplained = 0;
  for (const auto& [ij, f] : flags) {
    const Problem& b = bench[ij.first];
    const Problem& c = corpus[ij.second];
    auto key = std::make_pair(b.spec.name, c.spec.name);
    seen->insert(key);
    auto it = explained.find(key);
    std::string why = f.behaviour ? "equal outputs (" + f.mapping + ")" : "";
    if (f.structure >= 0) why += fmt::format("{}loop-nest similarity {:.3f}", why.empty() ? "" : "; ", f.structure);
    const std::string state = it == explained.end() ? "UNEXPLAINED" : "explained: " + it->second.verdict;
    if (it == explained.end()) ++unexplained;
    std::printf("MEANING %s ~ %s: %s [%s]\n", bench_items[ij.first].dir.string().c_str(),
                corpus_items[ij.second].dir.string().c_str(), why.c_str(), state.c_str());
    flagged->push_back({{"benchmark", b.spec.name},
                        {"benchmark_dir", bench_items[ij.first].dir.string()},
                        {"corpus", c.spec.name},
                        {"corpus_dir", corpus_items[ij.second].dir.string()},
                        {"equal_outputs", f.behaviour},
                        {"mapping", f.mapping},
                        {"structure", f.structure >= 0 ? OrderedJson(f.structure) : OrderedJson(nullptr)},
                        {"explained", it == explained.end() ? OrderedJson(nullptr) : OrderedJson(it->second.verdict)}});
  }
  return unexplained;
}

// The explained pairs that are not flagged any more.
void PrintNotFlaggedNow(const ExplainedPairs& explained, const std::set<std::pair<std::string, std::string>>& seen) {
  for (const auto& [key, e] : explained) {
    if (!seen.count(key)) {
      std::printf("explained pair not flagged now (%s): %s ~ %s: %s\n", e.verdict.c_str(), key.first.c_str(),
                  key.second.c_str(), e.action.c_str());
    }
  }
}

}  // namespace

void AddMeaningFlags(CLI::App* overlap, MeaningArgs* a) {
  overlap->add_flag("--meaning", a->enabled,
                    "also compare what the code computes: run each corpus reference with a compatible signature "
                    "on the benchmark's tests (sandboxed, cached), and compare normalised loop nests");
  overlap->add_option("--explained", a->explained,
                      "explained-pairs file (suites/overlap-explained.tsv): a flagged pair not in it fails");
  overlap->add_flag_callback(
      "--no-behaviour", [a] { a->behaviour = false; },
      "meaning: the structure check alone, without running references (the slow part on a cold cache: minutes)");
  AddNumber(overlap, "--structure-threshold", &a->structure_threshold, {0.0, 1.0},
            "meaning: a pair whose loop-nest similarity is at or above this is flagged");
  AddNumber(overlap, "--mappings", &a->mappings, {1, 720}, "meaning: argument bindings tried per compatible pair");
  AddNumber(overlap, "--run-timeout", &a->run_timeout_s, {0.1, 600.0}, "meaning: seconds one stand-in run may take");
}

Result<int> RunMeaningCheck(const MeaningArgs& args, const std::vector<bench::OverlapItem>& bench_items,
                            const std::vector<bench::OverlapItem>& corpus_items, OrderedJson* json) {
  if (!seed::FrontEndAvailable()) {
    return Status::FailedPrecondition("--meaning needs the C++ front end (libclang; Debian: libclang-dev)");
  }
  ExplainedPairs explained;
  if (!args.explained.empty()) {
    RG_ASSIGN_OR_RETURN(explained, bench::ReadExplained(args.explained));
  }
  RG_ASSIGN_OR_RETURN(std::vector<Problem> bench, LoadAll(bench_items));
  RG_ASSIGN_OR_RETURN(std::vector<Problem> corpus, LoadAll(corpus_items));

  // Structure.
  size_t parsed = 0;
  RG_ASSIGN_OR_RETURN(auto bs, Structures(bench, &parsed));
  RG_ASSIGN_OR_RETURN(auto cs, Structures(corpus, &parsed));
  auto spairs = bench::ScoreStructures(bs, cs);
  std::map<std::pair<size_t, size_t>, Flag> flags;
  for (const auto& p : spairs) {
    if (p.similarity < args.structure_threshold) break;
    flags[{p.first, p.second}].structure = p.similarity;
  }

  // Behaviour (skipped with --no-behaviour: the slow part on a cold cache).
  bench::BehaviourReport behaviour;
  if (args.behaviour) {
    RG_ASSIGN_OR_RETURN(behaviour, CompareBehaviourOf(args, bench, corpus));
  }
  size_t equal = 0;
  for (const auto& p : behaviour.pairs) {
    if (!p.equal) continue;
    ++equal;
    Flag& f = flags[{p.first, p.second}];
    f.behaviour = true;
    f.mapping = p.mapping;
  }

  // Report.
  std::set<std::pair<std::string, std::string>> seen;
  OrderedJson flagged = OrderedJson::array();
  const int unexplained = PrintFlags(flags, bench, corpus, bench_items, corpus_items, explained, &seen, &flagged);
  size_t shown = 0;
  for (const auto& p : spairs) {
    if (p.similarity >= args.structure_threshold) continue;
    if (shown++ >= static_cast<size_t>(args.show)) break;
    std::printf("structure below threshold %.3f: %s ~ %s\n", p.similarity, bench_items[p.first].dir.string().c_str(),
                corpus_items[p.second].dir.string().c_str());
  }
  PrintNotFlaggedNow(explained, seen);
  auto quantile = [&](double q) {
    if (spairs.empty()) return 0.0;
    size_t rank = static_cast<size_t>(q * static_cast<double>(spairs.size() - 1) + 0.5);
    return spairs[spairs.size() - 1 - rank].similarity;
  };
  const size_t flagged_structure = std::count_if(flags.begin(), flags.end(), [](const auto& kv) {
    return kv.second.structure >= 0;
  });
  std::printf(
      "meaning: behaviour: %zu compatible pairs, %zu runs (%zu cached), %zu with equal outputs; structure: %zu "
      "pairs (%zu references parsed), median %.3f, p99 %.3f, max %.3f, %zu at or above %.3f; %zu flagged, %d "
      "unexplained\n",
      behaviour.pairs.size(), behaviour.runs, behaviour.cached_runs, equal, spairs.size(), parsed, quantile(0.5),
      quantile(0.99), quantile(1.0), flagged_structure, args.structure_threshold, flags.size(), unexplained);
  if (json) {
    *json = OrderedJson{{"compatible_pairs", behaviour.pairs.size()},
                        {"runs", behaviour.runs},
                        {"cached_runs", behaviour.cached_runs},
                        {"equal_outputs", equal},
                        {"structure_threshold", args.structure_threshold},
                        {"structure_pairs", spairs.size()},
                        {"structure_median", quantile(0.5)},
                        {"structure_p99", quantile(0.99)},
                        {"structure_max", quantile(1.0)},
                        {"flagged", flagged},
                        {"unexplained", unexplained}};
  }
  return unexplained;
}

}  // namespace regrapht::cli
