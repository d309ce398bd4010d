// The training corpus must not contain benchmark problems (`regrapht suite
// overlap`; docs/bench.md, "The overlap check" and "Contamination by
// meaning"). This header holds what a program needs to run both checks:
// by tokens (CheckOverlapByTokens: names, normalised sources, near-duplicate
// code) and by meaning: benchmark problems and corpus kernels that compute the same
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

// ---- By tokens: names, normalised sources, near duplicates ----------------------

// The check by tokens (docs/bench.md, "The overlap check"): exact overlaps
// (the same name, function name or normalised reference source; a name in the
// `names` file) and near duplicates (identifier-masked token k-grams,
// IDF-weighted Jaccard of the most similar pair of code files). The defaults
// are the measured choice of that page.
struct OverlapTokenOptions {
  std::vector<std::filesystem::path> benchmark;  // folders searched recursively for problem.json
  std::vector<std::filesystem::path> corpus;     // the same, for the training corpus
  std::filesystem::path names;                   // forbidden names, one per line ('#' comments); empty: none
  int kgram = 9;
  int window = 1;           // winnowing window (1: every k-gram)
  double threshold = 0.27;  // a pair at or above it is a near duplicate
};

// An exact overlap: a benchmark item and a corpus item (or, for reason
// "pareval", the forbidden name in `corpus.name` and an empty dir).
struct OverlapFound {
  OverlapItem benchmark, corpus;
  std::string reason;  // "name", "function", "source", "pareval"
};

// A benchmark item and a corpus item by the most similar pair of their code files.
struct OverlapNearPair {
  size_t benchmark = 0, corpus = 0;  // indices into the report's items
  std::string benchmark_file, corpus_file;  // empty if no file pair shares a k-gram
  double similarity = 0;
  size_t shared = 0;  // k-grams the two files share
};

struct OverlapTokenReport {
  std::vector<OverlapItem> benchmark_items, corpus_items;  // folder by folder, in the options' order
  std::vector<OverlapFound> overlaps;
  std::vector<OverlapNearPair> pairs;  // every pair, most similar first
  size_t near_duplicates = 0;          // pairs at or above the threshold
  size_t files_benchmark = 0, files_corpus = 0;  // code files read
  double median = 0, p99 = 0, p999 = 0, max = 0;  // similarity quantiles over `pairs` (nearest rank)
};

// Collects both sides' items and runs the check by tokens. Fails (a Status
// naming the file) on an unreadable problem.json, trajectory.json, step or
// code file, or names file.
Result<OverlapTokenReport> CheckOverlapByTokens(const OverlapTokenOptions& options);

}  // namespace regrapht
