// The paper's metrics, computed from stored result rows.
//
// - pass@k: the unbiased estimator 1 - C(n-c, k) / C(n, k) per problem
//   (Chen et al.; ParEval) over its verified samples (compiled_only and
//   not_emulated ones are neither passes nor failures), averaged over the
//   problems with at least one verified sample.
// - speedup@k: the expected best speedup of k samples drawn from a
//   problem's correct samples, sum_j C(j-1, k-1) / C(N, k) * T_ref / T_j over
//   runtimes sorted slowest first, averaged over the problems with at least
//   one correct sample (the paper's definition, with ParEval's estimator).
//   For k = 1 it is the mean speedup of the correct samples, exactly
//   ParEval's figure. For k > 1 ParEval's code sorts fastest first and takes
//   C(n, r) = 1 when n < r, which gives neither the best nor the worst of k;
//   we compute the best of k (docs/bench.md).
// - geomean speedup: geometric mean over timed solved problems of their
//   speedup@1 (the same per-problem figure speedup@1 averages).
// - fast_p: fraction of verified samples, averaged over the problems with
//   one, that are correct and faster than p times the reference (KernelBench's
//   fast_p, per sample).
// - evidence: samples by what ran them: gpu-timed (correct, timed on a GPU),
//   gpu-untimed (ran on a GPU, no timing), emulated (the CPU emulator),
//   compiled-only (nothing ran: no GPU, or the emulator could not run it).
// - compile@k: pass@k with "compiled" as success.
// - 95% bootstrap confidence intervals, resampling problems (seeded).
// - tokens and verifications spent per solved problem.
// Samples that are compiled_only (no GPU) are counted apart: they are not
// failures and not passes; any present makes the metrics "unverified".
// Correct samples without timing (--no-timing, or --emulate: the CPU
// emulator) count for pass@k and solved, never for the speed metrics, which
// average over the problems with at least one timed correct sample.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "store/results_store.h"

namespace regrapht::bench {

double PassAtK(int n, int c, int k);
double SpeedupAtK(std::vector<double> runtimes_ms, double baseline_ms, int k);

struct Interval {
  double lo = 0, hi = 0;
};

struct MetricSet {
  int problems = 0;
  int samples = 0;
  int solved = 0;             // problems with at least one correct sample
  int unverified = 0;         // compiled_only samples
  int untimed = 0;            // correct samples whose speed was not measured
  int unsandboxed = 0;        // samples run with --unsafe-no-sandbox
  int timed_solved = 0;       // problems with at least one timed correct sample
  int verified_problems = 0;  // problems with at least one verified sample (the pass@k denominator)
  std::map<std::string, int> evidence;  // "gpu-timed", "gpu-untimed", "emulated", "compiled-only" -> samples
  std::map<int, double> pass_at;       // k -> pass@k
  std::map<int, double> speedup_at;    // k -> speedup@k (over solved problems)
  std::map<int, double> compile_at;    // k -> compile@k
  double geomean_speedup = 0;
  std::map<std::string, double> fast;  // "1", "1.5", "2" -> fast_p
  Interval pass_at_1_ci, speedup_at_1_ci, geomean_ci;
  double tokens_per_solved = 0;
  double verifications_per_solved = 0;
  double generations_per_solved = 0;
  // Held-out evaluation (docs/bench.md): samples whose answer was re-verified
  // on held-out inputs, how many stayed correct, and over the pairs timed
  // both times the geometric means of the two speedups (search-time over
  // held-out > 1 is the winner's curse). Every figure above is held-out.
  // Kernel-only figures beside the call's (docs/bench.md): over the problems
  // with a correct sample whose kernel time was measured (CUPTI in the
  // drop-in form, CUDA events in the kernel form), speedup@1 and the
  // geometric mean of the per-problem kernel speedup@1. 0 problems: absent.
  int kernel_timed_solved = 0;
  double kernel_speedup_at_1 = 0;
  double kernel_geomean_speedup = 0;
  int heldout_runs = 0;
  int heldout_kept = 0;
  int heldout_timed_pairs = 0;
  double search_geomean_paired = 0;
  double heldout_geomean_paired = 0;
};

// A sample the expected set holds and the rows do not.
struct MissingSample {
  std::string problem;
  int sample = 0;
  bool operator==(const MissingSample&) const = default;
};

// Which of an experiment's expected rows (problems x samples) are present.
// The expected set comes from the runs' plan (ResultsStore::QueryPlan) or
// from the suite folder given to `report --suite`; without either it is
// unknown, and only what is present can be said (AddCoverage, coverage.h).
struct Coverage {
  std::string expected_from;      // "plan", "suite" or "" (unknown)
  int problems_expected = 0;
  int samples_expected = 0;       // per problem
  int expected = 0;               // problems x samples
  int present = 0;                // rows in the expected set
  int problems_present = 0;       // problems with at least one row
  std::vector<MissingSample> missing;  // ordered by problem, sample
  int outside = 0;                // rows for problems or samples outside the expected set

  bool known() const { return !expected_from.empty(); }
  bool complete() const { return known() && missing.empty(); }
};

// One experiment: rows sharing suite, method, model and config.
struct GroupMetrics {
  std::string suite, method, model, config_hash, config_json;
  MetricSet overall;
  std::map<std::string, MetricSet> by_tier;  // tiers present
  Coverage coverage;
  bool has_rows() const { return overall.samples > 0; }  // false: planned, nothing stored yet
};

struct MetricsOptions {
  std::vector<int> ks = {1};
  int bootstrap = 1000;
  uint64_t seed = 12345;
  // "call" (default): the speed metrics time each row's headline figure (the
  // drop-in call, transfers included; the kernel form's kernel). "kernel":
  // ParEval-compatible, every speed metric from kernel-only time; a correct
  // row without a kernel figure counts as untimed, and held-out pairs (the
  // search measured calls) are left out.
  std::string timing = "call";
};

std::vector<GroupMetrics> ComputeMetrics(const std::vector<ResultRow>& rows, const MetricsOptions& options);

// A row's kernel-only figure from its stored result: the kernel median (ms)
// and the speedup it gives; nullopt where none was measured (never zero).
struct KernelFigure {
  double ms = 0, speedup = 0;
};
std::optional<KernelFigure> KernelFigureOf(const ResultRow& row);

// The evidence level of one stored sample (see above).
std::string EvidenceOf(const ResultRow& row);
inline constexpr const char* kEvidenceLevels[] = {
    "gpu-timed+emulated+sanitized", "gpu-timed+emulated", "gpu-timed+sanitized", "gpu-timed",
    "gpu-untimed+emulated+sanitized", "gpu-untimed+emulated", "gpu-untimed+sanitized", "gpu-untimed",
    "emulated", "compiled-only"};

}  // namespace regrapht::bench
