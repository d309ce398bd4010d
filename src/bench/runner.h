// Runs one method over a suite and stores one row per problem x sample.
//
// Resumable: finished rows are skipped (ResultsStore::Has), so a run killed
// at any point and started again redoes only unfinished samples. Shardable:
// shard i of n takes every n-th problem; every shard records the plan of the
// whole suite (ResultsStore::PutPlan) so reports can name what is missing.
// Concurrent: up to `jobs` samples (problems and samples alike) are in
// flight at once, each on its own thread; a sample's seed depends only on
// the problem and the sample index, so the rows are those of a sequential
// run whatever order they finish in. Optional two-phase mode (`prepare`):
// all builds first, in parallel, then the timed runs one at a time, so
// compiler jobs never disturb a timing.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bench/suite.h"
#include "core/clock.h"
#include "regrapht/bench.h"
#include "regrapht/verify.h"
#include "store/results_store.h"

namespace regrapht::bench {

struct SampleOutcome {
  std::string source;       // the candidate verified
  VerifyResult result;
  int64_t tokens_prompt = 0;
  int64_t tokens_generated = 0;
  int generations = 0;
  int verifications = 1;
  std::string search_json;  // the method's trace
  // Set when `result` is a held-out run (verify/heldout.h): what the
  // method's own selection measured.
  std::optional<VerifyResult> search_result;
  // Non-empty: the sample did not finish (the run was interrupted, or the
  // model endpoint failed: every request, or too many in a row), and why.
  // Such a sample is not stored, so that a resumed run redoes it.
  std::string incomplete;
  bool endpoint_failed = false;  // with `incomplete`: the endpoint's fault
  // Served from caches for this sample (ResultRow::run_json): model replies
  // of the response cache, candidate builds of the build cache, of all.
  int replies = 0, replies_cached = 0, builds = 0, builds_cached = 0;
};

// Produces and verifies one sample. A non-OK Status is a failure of the tool
// (nvcc missing, a broken prompt template): the run stops, keeping finished
// rows. A model endpoint that fails is not a Status: the method says so in
// SampleOutcome::incomplete. A Cancelled Status (the caller's Ctrl-C or
// time limit cut the sample short) is an incomplete sample, not an error.
using MethodFn = std::function<Result<SampleOutcome>(const SuiteProblem&, int sample, uint64_t seed)>;
using PrepareFn = std::function<Status(const SuiteProblem&)>;

struct RunnerOptions {
  std::string method;
  std::string model;
  std::string config_json = "{}";  // settings that change results; hashed into the row key
  int samples = 1;
  int shard_index = 0, shard_count = 1;
  bool resume = true;               // false: redo samples already stored
  int jobs = 1;                     // samples in flight (bench --max-in-flight)
  uint64_t seed = 1;
  bool progress = true;             // progress bar on stderr
  PrepareFn prepare;                // optional build phase
  int prepare_jobs = 2;
  // Polled before each sample starts (and each build of the build phase):
  // non-empty stops the run there, and says why (an interruption, an
  // endpoint that keeps failing). Samples in flight finish or report
  // themselves incomplete.
  std::function<std::string()> stop;
  // What runs (a JSON object's text: "run_id", "command", "version",
  // "commit", "device" when the run decides it (the emulator), "emulated"),
  // recorded in every row's run_json with the GPU the row's candidate ran on
  // and its cache hits; "": none recorded.
  std::string run_json;
};

// What a run did: the public summary (regrapht/bench.h), all of it but
// cache_line and endpoint_failed, which the caller adds.
using RunSummary = BenchSummary;

// Seed of one sample: stable across runs, shards and machines.
uint64_t SampleSeed(uint64_t base, const std::string& problem, int sample);
std::string ConfigHash(const std::string& config_json);
// The content of a problem that decides its rows: spec, reference,
// description and expert solutions. A resumed run redoes the rows of a
// problem whose hash changed (a fixed reference.cpp must not keep the old
// verdicts).
std::string ProblemContentHash(const Problem& problem);

Result<RunSummary> RunSuite(const Suite& suite, const RunnerOptions& options, const MethodFn& method,
                            ResultsStore* store, const Clock* clock);

}  // namespace regrapht::bench
