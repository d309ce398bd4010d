// The training corpus must not contain benchmark problems (`regrapht suite
// overlap`; docs/bench.md, "The overlap check" and "Contamination by
// meaning"). This header holds what a program needs to run the check by
// meaning: benchmark problems and corpus kernels that compute the same
// function whatever their tokens, by behaviour (a corpus reference with a
// compatible signature run sandboxed on the benchmark's own tests: equal
// outputs on every case flag the pair) and by structure (normalised loop
// nests compared; a pair at or above a similarity threshold is flagged).
// A flagged pair fails unless the explained-pairs file gives its verdict.
//
//   OverlapMeaningOptions o;
//   o.explained = "suites/overlap-explained.tsv";
//   Result<OverlapMeaningReport> r = CheckOverlapByMeaning(bench_items, corpus_items, o);
//   if (r.ok() && r->unexplained > 0) { ... }
//
// Inside the library (regrapht_bench): bench/overlap.h (names, sources and
// near-duplicate tokens), bench/overlap_meaning.h, bench/overlap_structure.h.
//
// Thread safety: CheckOverlapByMeaning may run concurrently with other calls
// except another one sharing its cache folder (the cache is written
// atomically, so the worst case is work done twice).
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "regrapht/status.h"

namespace regrapht {

// One benchmark problem or corpus kernel of the overlap check: a folder
// holding a problem.json (and, for a corpus kernel, its trajectory.json).
struct OverlapItem {
  std::string set;  // label of where it came from
  std::filesystem::path dir;
  std::string name;         // problem / kernel name
  std::string function;     // function name
  std::string source_hash;  // of the normalised reference
  // The code files compared for near duplicates, relative to `dir`:
  // reference.cpp, solution.cu and kernel.cu where they exist, then every
  // step's code in trajectory.json order.
  std::vector<std::string> code_files;
};

struct OverlapMeaningOptions {
  bool behaviour =
      true;  // false: the structure check alone (no references run: the slow part on a cold cache)
  std::filesystem::path
      explained;  // the explained-pairs file; empty: none (every flagged pair unexplained)
  double structure_threshold = 0.58;  // docs/bench.md ("Contamination by meaning")
  size_t mappings = 6;                // argument bindings tried per compatible pair
  double run_timeout_s = 10;          // one stand-in run
  size_t show = 5;                    // the most similar pairs below the threshold to list
  // Called after each compatible pair is run, with (done, total); may be empty.
  std::function<void(size_t done, size_t total)> on_behaviour_progress;
};

// A flagged pair.
struct OverlapMeaningFlag {
  std::string benchmark, corpus;  // problem.json names
  std::filesystem::path benchmark_dir, corpus_dir;
  bool equal_outputs = false;       // behaviour flagged it
  std::string mapping;              // the argument binding that gave equal outputs ("y<-y, n<-n")
  std::optional<double> structure;  // the loop-nest similarity where at or above the threshold
  std::optional<std::string> explained;  // the explained-pairs file's verdict; none: unexplained

  // "equal outputs (MAPPING); loop-nest similarity 0.712", the parts that apply.
  std::string Why() const;
};

// A pair below the structure threshold, for scale.
struct OverlapMeaningNearPair {
  double similarity = 0;
  std::filesystem::path benchmark_dir, corpus_dir;
};

// A pair of the explained-pairs file that is not flagged any more.
struct OverlapMeaningStalePair {
  std::string benchmark, corpus, verdict, action;
};

struct OverlapMeaningReport {
  std::vector<OverlapMeaningFlag> flagged;               // by (benchmark, corpus) index
  std::vector<OverlapMeaningNearPair> below_threshold;   // most similar first, at most `show`
  std::vector<OverlapMeaningStalePair> not_flagged_now;  // in the file's (benchmark, corpus) order
  // Behaviour.
  size_t compatible_pairs = 0, runs = 0, cached_runs = 0, equal_outputs = 0;
  // Structure.
  size_t structure_pairs = 0, references_parsed = 0, flagged_by_structure = 0;
  double structure_median = 0, structure_p99 = 0, structure_max = 0;
  int unexplained = 0;  // flagged pairs the explained-pairs file does not explain
};

// Runs both checks (behaviour unless options.behaviour is false) over the
// items' problem folders. Structures are cached by content under
// CacheDir()/overlap-structure and behaviour results under CacheDir().
// Fails (a Status) when a check cannot run: no C++ front end (libclang), no
// sandbox, a problem folder or reference that does not load or build, a
// malformed explained-pairs file (named with its line).
Result<OverlapMeaningReport> CheckOverlapByMeaning(const std::vector<OverlapItem>& benchmark,
                                                   const std::vector<OverlapItem>& corpus,
                                                   const OverlapMeaningOptions& options);

}  // namespace regrapht
