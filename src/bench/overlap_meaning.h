// Contamination by meaning: benchmark problems and corpus kernels that
// compute the same function, whatever their tokens (docs/bench.md,
// "Contamination by meaning"). Two checks beside the token check of
// bench/overlap.h:
//
// 1. Behaviour. A corpus kernel whose reference has a signature compatible
//    with a benchmark problem's (ArgMappings) is run in the benchmark's place
//    on the benchmark's own test inputs, through the Verifier's plain C++
//    candidate path (VerifyOptions::RunMode::kCpuCandidate: compiled with the host
//    compiler, run sandboxed, outputs compared with the benchmark
//    reference's within the spec's tolerance). Equal outputs on every test
//    case flag the pair.
// 2. Structure (bench/overlap_structure.h): normalised loop nests compared.
//
// A flagged pair fails `suite overlap --meaning` unless the explained-pairs
// file (ReadExplained; suites/overlap-explained.tsv) gives its verdict.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/fs.h"
#include "regrapht/problem.h"
#include "regrapht/status.h"
#include "regrapht/verify.h"

namespace regrapht::bench {

// The kind of a parameter after renaming, which decides what it may be bound
// to: "int" (a size, or an integer scalar), "real" (a floating scalar),
// "scalar:<type>" (other scalars), "in:<type>", "out:<type>", "inout:<type>"
// (arrays and output scalars, by element type: float and double differ).
// Struct-typed parameters have no kind ("").
std::string ParamKind(const ProblemSpec& spec, const ArgSpec& arg);

// One way to call a corpus function in a benchmark function's place:
// `corpus_arg[j]` is the index of the benchmark argument passed as the
// corpus function's j-th argument.
struct ArgMapping {
  std::vector<size_t> corpus_arg;
  std::string Text(const ProblemSpec& bench, const ProblemSpec& corpus) const;  // "y<-y, n<-n, ..."
};

// The mappings under which the corpus function `corpus` can stand in for the
// benchmark function `bench`: both return the same type (or nothing), take
// the same multiset of parameter kinds, and every pair of bound parameters
// passes the same way (an array passed as a std::vector may be bound to a
// pointer parameter: .data()). The first mapping keeps the order of each
// kind's parameters; the others permute parameters of one kind among
// themselves (two sizes in the other order, (rows, cols) versus (cols,
// rows)), at most `max_mappings` in all. Empty when incompatible (a struct
// parameter or return is never compatible: the two specs' structs differ).
std::vector<ArgMapping> ArgMappings(const ProblemSpec& bench, const ProblemSpec& corpus, size_t max_mappings);

// A plain C++ candidate for the benchmark problem: the corpus reference
// (its #-lines first, the rest inside namespace rg_twin so that its names
// cannot clash) and the benchmark's signature calling it under `mapping`.
std::string AdapterSource(const Problem& bench, const Problem& corpus, const ArgMapping& mapping);

struct BehaviourOptions {
  size_t max_mappings = 6;
  double time_limit_s = 10;  // one run of a candidate (a wrong binding can loop long)
  fs::path cache_dir;        // results by content hash; empty: no cache
};

// The outcome for one (benchmark, corpus) pair with at least one mapping.
struct BehaviourPair {
  size_t first = 0, second = 0;  // indices into `bench` and `corpus`
  bool equal = false;            // some mapping gave the benchmark's outputs on every test case
  std::string mapping;           // the mapping that did (or the first one tried)
  std::string verdict;           // the Verifier's verdict for that mapping ("correct", "wrong_answer", ...)
  std::string detail;
  size_t mappings_tried = 0;
  bool cached = false;  // every mapping's result came from the cache
};

struct BehaviourReport {
  std::vector<BehaviourPair> pairs;  // compatible pairs, in (first, second) order
  size_t runs = 0, cached_runs = 0;  // Verify() calls made, results read from the cache
};

// Runs every compatible pair through `verifier`, which must be a plain C++
// candidate verifier (cpu_candidate, no timing). `progress` (may be empty)
// is called after each pair with (done, total). A harness failure (the
// reference does not build, the sandbox is missing) is a Status; a candidate
// that fails to compile or crashes is only "not equal".
Result<BehaviourReport> CompareBehaviour(const std::vector<Problem>& bench, const std::vector<Problem>& corpus,
                                         Verifier* verifier, const BehaviourOptions& options,
                                         const std::function<void(size_t, size_t)>& progress);

// ---------------------------------------------------------------------------
// The explained-pairs file: tab-separated, '#' comments, one pair a line:
//   benchmark  corpus  verdict  why  action
// `benchmark` and `corpus` are problem / kernel names (problem.json "name"),
// `verdict` "twin" (the same function: `action` says what was removed) or
// "distinct" (flagged, but not the same function: `why` says what differs).

struct ExplainedPair {
  std::string benchmark, corpus, verdict, why, action;
  int line = 0;
};

// Fails naming the file and line on a malformed line (fewer than five
// fields, an empty field, an unknown verdict) or a pair given twice.
Result<std::map<std::pair<std::string, std::string>, ExplainedPair>> ReadExplained(const fs::path& file);

}  // namespace regrapht::bench
