// CheckOverlapByMeaning (regrapht/overlap.h): the behaviour and structure
// checks of bench/overlap_meaning.h and bench/overlap_structure.h over two
// sets of problem folders, with the explained-pairs file.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <utility>

#include "bench/overlap_meaning.h"
#include "bench/overlap_structure.h"
#include "core/fs.h"
#include "core/hash.h"
#include "regrapht/overlap.h"
#include "seed/ast.h"
#include "verify/runner_options.h"

namespace regrapht {
namespace {

constexpr const char* kStructureCacheVersion = "overlap-structure-v2";

Result<std::vector<Problem>> LoadOverlapProblems(const std::vector<OverlapItem>& items) {
  std::vector<Problem> out;
  for (const auto& it : items) {
    RG_ASSIGN_OR_RETURN(Problem p, LoadProblem(it.dir));
    out.push_back(std::move(p));
  }
  return out;
}

// Each problem's structure, from the cache (CacheDir()/overlap-structure,
// by content) or parsed (counted in *parsed).
Result<std::vector<bench::LoopStructure>> CachedStructures(const std::vector<Problem>& problems,
                                                           size_t* parsed) {
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
    auto s =
        bench::StructureOf(p.reference_source, p.spec.function, (p.dir / "reference.cpp").string());
    if (!s.ok()) return s.status();
    ++*parsed;
    std::error_code ec;
    fs::create_directories(dir, ec);
    RG_RETURN_IF_ERROR(WriteFileAtomic(file, bench::SerializeStructure(*s)));
    out.push_back(std::move(*s));
  }
  return out;
}

// Runs each corpus reference with a compatible signature on the benchmark's
// tests (sandboxed, cached) and compares the outputs.
Result<bench::BehaviourReport> RunBehaviourCheck(const OverlapMeaningOptions& options,
                                                 const std::vector<Problem>& benchmark,
                                                 const std::vector<Problem>& corpus) {
  VerifyOptions vo;
  vo.run_mode = VerifyOptions::RunMode::kCpuCandidate;
  vo.timing = false;
  vo.edge_cases = false;
  vo.run_memory_bytes = int64_t{4} << 30;
  RG_RETURN_IF_ERROR(CheckSandboxAvailable(vo));
  std::unique_ptr<Verifier> verifier = NewVerifier(vo);
  bench::BehaviourOptions bo;
  bo.max_mappings = options.mappings;
  bo.time_limit_s = options.run_timeout_s;
  bo.cache_dir = CacheDir();
  return bench::CompareBehaviour(benchmark, corpus, verifier.get(), bo,
                                 options.on_behaviour_progress);
}

using ExplainedPairs = std::map<std::pair<std::string, std::string>, bench::ExplainedPair>;

// The flagged pairs (by index pair) named and matched with the explained
// pairs into `report`, and the explained pairs not flagged any more.
void AddFlagged(std::map<std::pair<size_t, size_t>, OverlapMeaningFlag> flags,
                const std::vector<Problem>& benchmark, const std::vector<Problem>& corpus,
                const std::vector<OverlapItem>& benchmark_items,
                const std::vector<OverlapItem>& corpus_items, const ExplainedPairs& explained,
                OverlapMeaningReport* report) {
  std::set<std::pair<std::string, std::string>> seen;
  for (auto& [ij, f] : flags) {
    f.benchmark = benchmark[ij.first].spec.name;
    f.corpus = corpus[ij.second].spec.name;
    f.benchmark_dir = benchmark_items[ij.first].dir;
    f.corpus_dir = corpus_items[ij.second].dir;
    const auto key = std::make_pair(f.benchmark, f.corpus);
    seen.insert(key);
    if (auto it = explained.find(key); it != explained.end()) {
      f.explained = it->second.verdict;
    } else {
      ++report->unexplained;
    }
    if (f.structure) ++report->flagged_by_structure;
    report->flagged.push_back(std::move(f));
  }
  for (const auto& [key, e] : explained) {
    if (!seen.count(key))
      report->not_flagged_now.push_back({key.first, key.second, e.verdict, e.action});
  }
}

}  // namespace

std::string OverlapMeaningFlag::Why() const {
  std::string why = equal_outputs ? "equal outputs (" + mapping + ")" : "";
  if (structure)
    why += fmt::format("{}loop-nest similarity {:.3f}", why.empty() ? "" : "; ", *structure);
  return why;
}

Result<OverlapMeaningReport> CheckOverlapByMeaning(const std::vector<OverlapItem>& benchmark_items,
                                                   const std::vector<OverlapItem>& corpus_items,
                                                   const OverlapMeaningOptions& options) {
  if (!seed::FrontEndAvailable()) {
    return Status::FailedPrecondition(
        "--meaning needs the C++ front end (libclang; Debian: libclang-dev)");
  }
  ExplainedPairs explained;
  if (!options.explained.empty()) {
    RG_ASSIGN_OR_RETURN(explained, bench::ReadExplained(options.explained));
  }
  RG_ASSIGN_OR_RETURN(std::vector<Problem> benchmark, LoadOverlapProblems(benchmark_items));
  RG_ASSIGN_OR_RETURN(std::vector<Problem> corpus, LoadOverlapProblems(corpus_items));
  OverlapMeaningReport report;

  // Structure.
  RG_ASSIGN_OR_RETURN(auto bs, CachedStructures(benchmark, &report.references_parsed));
  RG_ASSIGN_OR_RETURN(auto cs, CachedStructures(corpus, &report.references_parsed));
  const std::vector<bench::StructurePair> spairs = bench::ScoreStructures(bs, cs);
  std::map<std::pair<size_t, size_t>, OverlapMeaningFlag> flags;
  for (const auto& p : spairs) {
    if (p.similarity < options.structure_threshold) break;
    flags[{p.first, p.second}].structure = p.similarity;
  }

  // Behaviour (skipped without options.behaviour: the slow part on a cold cache).
  bench::BehaviourReport behaviour;
  if (options.behaviour) {
    RG_ASSIGN_OR_RETURN(behaviour, RunBehaviourCheck(options, benchmark, corpus));
  }
  for (const auto& p : behaviour.pairs) {
    if (!p.equal) continue;
    ++report.equal_outputs;
    OverlapMeaningFlag& f = flags[{p.first, p.second}];
    f.equal_outputs = true;
    f.mapping = p.mapping;
  }

  // The flagged pairs, explained or not, and the explained pairs not flagged now.
  AddFlagged(std::move(flags), benchmark, corpus, benchmark_items, corpus_items, explained,
             &report);
  for (const auto& p : spairs) {
    if (p.similarity >= options.structure_threshold) continue;
    if (report.below_threshold.size() >= options.show) break;
    report.below_threshold.push_back(
        {p.similarity, benchmark_items[p.first].dir, corpus_items[p.second].dir});
  }

  // The figures.
  report.compatible_pairs = behaviour.pairs.size();
  report.runs = behaviour.runs;
  report.cached_runs = behaviour.cached_runs;
  report.structure_pairs = spairs.size();
  auto quantile = [&](double q) {
    if (spairs.empty()) return 0.0;
    size_t rank = static_cast<size_t>(q * static_cast<double>(spairs.size() - 1) + 0.5);
    return spairs[spairs.size() - 1 - rank].similarity;
  };
  report.structure_median = quantile(0.5);
  report.structure_p99 = quantile(0.99);
  report.structure_max = quantile(1.0);
  return report;
}

}  // namespace regrapht
