#include "bench/runner.h"

#include <atomic>
#include <cstdio>
#include <functional>
#include <mutex>

#include "core/hash.h"
#include "core/json_util.h"
#include "core/parallel.h"
#include "core/progress.h"
#include "core/strings.h"
#include "verify/result_json.h"

namespace regrapht::bench {
namespace {

// A row's run_json: the run's facts, where this row's candidate ran and what
// the caches served it.
std::string RowRunJson(const std::string& run, const SampleOutcome& o) {
  OrderedJson j = OrderedJson::parse(run, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) j = OrderedJson::object();
  // The run's device (the emulator), or the GPU this row's candidate ran on.
  const std::string& gpu = o.result.env.gpu_name;
  if (!gpu.empty()) {
    j["device"] = gpu;
  } else if (!j.contains("device") || j["device"].is_null()) {
    j["device"] = "none: not run on a GPU (compiled only, or not built)";
  }
  j["cache"] = {{"replies", o.replies},
                {"replies_cached", o.replies_cached},
                {"builds", o.builds},
                {"builds_cached", o.builds_cached}};
  return j.dump();
}

}  // namespace

uint64_t SampleSeed(uint64_t base, const std::string& problem, int sample) {
  return Hash64(problem, base) + static_cast<uint64_t>(sample) * 0x9e3779b97f4a7c15ULL;
}

std::string ConfigHash(const std::string& config_json) { return HashHex(config_json).substr(0, 16); }

std::string ProblemContentHash(const Problem& p) {
  Hasher h;
  h.Add("regrapht-problem-v1").Add(p.spec_text).Add(p.reference_source).Add(p.description);
  h.Add(p.solution_source.value_or("")).Add(p.kernel_solution_source.value_or(""));
  return h.Hex().substr(0, 16);
}

namespace {

// One sample to run: a problem of this shard and the sample's index.
struct SampleTask {
  const SuiteProblem* problem;
  int sample;
};

// Stores the whole suite's plan, whichever shard this is (a report of any
// subset of the shards' databases can then say what is missing), and returns
// this shard's samples still to run, counting them and those kept (resume:
// a stored row of an unchanged problem) into `summary`.
Result<std::vector<SampleTask>> PlanSamples(const Suite& suite, const RunnerOptions& o,
                                            const std::string& config_hash, ResultsStore* store,
                                            RunSummary* summary) {
  std::vector<PlanEntry> plan;
  for (const auto& p : suite.problems) {
    plan.push_back({suite.name, p.problem.spec.name, p.tier, o.method, o.model, config_hash, o.samples});
  }
  RG_RETURN_IF_ERROR(store->PutPlan(plan));
  std::vector<std::string> hashes;
  for (const auto& p : suite.problems) hashes.push_back(ProblemContentHash(p.problem));
  std::vector<SampleTask> tasks;
  for (size_t i = 0; i < suite.problems.size(); ++i) {
    if (static_cast<int>(i % o.shard_count) != o.shard_index) continue;
    for (int s = 0; s < o.samples; ++s) {
      ++summary->tasks;
      ResultKey key{suite.name, suite.problems[i].problem.spec.name, o.method, o.model, config_hash, s};
      if (o.resume) {
        RG_ASSIGN_OR_RETURN(std::optional<std::string> stored, store->StoredProblemHash(key));
        if (stored && (stored->empty() || *stored == hashes[i])) {
          ++summary->skipped;
          if (stored->empty()) ++summary->unhashed_kept;
          continue;
        }
        if (stored) ++summary->changed[key.problem];  // the problem changed: redo the row
      }
      tasks.push_back({&suite.problems[i], s});
    }
  }
  return tasks;
}

// The row of a finished sample.
ResultRow SampleRow(const Suite& suite, const RunnerOptions& o, const std::string& config_hash, const SampleTask& t,
                    uint64_t seed, const SampleOutcome& outcome, double wall_ms) {
  const VerifyResult& r = outcome.result;
  ResultRow row;
  row.key = {suite.name, t.problem->problem.spec.name, o.method, o.model, config_hash, t.sample};
  row.tier = t.problem->tier;
  row.problem_hash = ProblemContentHash(t.problem->problem);
  row.config_json = o.config_json;
  row.seed = seed;
  row.verdict = std::string(VerdictName(r.verdict));
  row.speedup = r.speedup;
  row.reward = Reward(r);
  row.candidate_ms = r.candidate_timing ? r.candidate_timing->median_ms : 0;
  row.reference_ms = r.reference_timing ? r.reference_timing->median_ms : 0;
  row.candidate_source = outcome.source;
  row.candidate_hash = r.candidate_hash;
  // A detail can quote what the model wrote, which need not be UTF-8 (a
  // reply cut inside a character, a byte token of a small model).
  row.result_json = JsonLine(VerifyResultToJson(r));
  row.env_json = JsonLine(EnvironmentToJson(r.env));
  row.search_json = outcome.search_json;
  row.tokens_prompt = outcome.tokens_prompt;
  row.tokens_generated = outcome.tokens_generated;
  row.generations = outcome.generations;
  row.verifications = outcome.verifications;
  row.wall_ms = wall_ms;
  if (outcome.search_result) {
    row.search_verdict = std::string(VerdictName(outcome.search_result->verdict));
    row.search_speedup = outcome.search_result->speedup;
  }
  if (!o.run_json.empty()) row.run_json = RowRunJson(o.run_json, outcome);
  return row;
}

// Counts a sample that did not finish into `summary` (cut short by the
// caller: Ctrl-C, a time limit; or incomplete by its own account) and says
// so; false for a finished sample or a harness error.
bool CountUnfinished(const Result<SampleOutcome>& outcome, const std::string& name, int sample,
                     RunSummary* summary) {
  std::string why;
  if (!outcome.ok()) {
    if (outcome.status().code() != Status::Code::kCancelled) return false;
    why = outcome.status().message();
  } else {
    if (outcome->incomplete.empty()) return false;
    why = outcome->incomplete;
    if (outcome->endpoint_failed) ++summary->incomplete_endpoint;
  }
  ++summary->incomplete;
  summary->incomplete_reasons.push_back(name + " #" + std::to_string(sample) + ": " + why);
  return true;
}

// Counts a stored row into `summary` and shows it on the progress line.
void CountStored(const ResultRow& row, const VerifyResult& r, int sample, RunSummary* summary,
                 CountProgress* progress) {
  ++summary->done;
  if (r.verdict == Verdict::kCorrect) ++summary->correct;
  else if (Unverified(r.verdict)) ++summary->unverified;
  else ++summary->failed;
  progress->Update(summary->done,
                   "correct " + std::to_string(summary->correct) + "  failed " + std::to_string(summary->failed) +
                       "  unverified " + std::to_string(summary->unverified),
                   row.key.problem + " #" + std::to_string(sample) + ": " + row.verdict +
                       (r.verdict == Verdict::kCorrect || r.detail.empty() ? std::string()
                                                                          : " (" + FirstLine(r.detail, 80) + ")"));
}

}  // namespace

Result<RunSummary> RunSuite(const Suite& suite, const RunnerOptions& o, const MethodFn& method,
                            ResultsStore* store, const Clock* clock) {
  if (o.shard_count < 1 || o.shard_index < 0 || o.shard_index >= o.shard_count) {
    return Status::InvalidArgument("--shard: index must be in [0, count)");
  }
  std::string config_hash = ConfigHash(o.config_json);
  RunSummary summary;
  RG_ASSIGN_OR_RETURN(std::vector<SampleTask> tasks, PlanSamples(suite, o, config_hash, store, &summary));
  double start = clock->NowSeconds();
  std::mutex mu;
  Status first_error;
  std::atomic<size_t> started{0};
  std::string stop_reason;
  // Whether the run must stop taking work (an error, or options.stop).
  auto stopping = [&] {
    std::lock_guard<std::mutex> lock(mu);
    if (!first_error.ok() || !stop_reason.empty()) return true;
    if (o.stop) stop_reason = o.stop();
    return !stop_reason.empty();
  };
  auto pool = [&](int jobs, const std::function<void(size_t)>& work) {
    ParallelFor(tasks.size(), jobs, work, stopping);
  };

  if (o.prepare) {
    pool(o.prepare_jobs, [&](size_t i) {
      if (tasks[i].sample != 0) return;
      Status st = o.prepare(*tasks[i].problem);
      if (!st.ok()) {
        std::lock_guard<std::mutex> lock(mu);
        if (first_error.ok()) first_error = st.WithContext(tasks[i].problem->problem.spec.name);
      }
    });
    RG_RETURN_IF_ERROR(first_error);
    if (!stop_reason.empty()) {
      summary.stop_reason = stop_reason;
      summary.not_started = static_cast<int>(tasks.size());
      return summary;
    }
  }

  CountProgress progress(o.progress, static_cast<int>(tasks.size()), clock);
  pool(o.jobs, [&](size_t i) {
    const SampleTask& t = tasks[i];
    const std::string& name = t.problem->problem.spec.name;
    uint64_t seed = SampleSeed(o.seed, name, t.sample);
    double t0 = clock->NowSeconds();
    ++started;
    auto outcome = method(*t.problem, t.sample, seed);
    {
      std::lock_guard<std::mutex> lock(mu);
      if (CountUnfinished(outcome, name, t.sample, &summary)) return;
      if (!outcome.ok()) {
        if (first_error.ok()) first_error = outcome.status().WithContext(name + " sample " + std::to_string(t.sample));
        return;
      }
    }
    ResultRow row = SampleRow(suite, o, config_hash, t, seed, *outcome, (clock->NowSeconds() - t0) * 1000);
    Status st = store->Put(row);
    std::lock_guard<std::mutex> lock(mu);
    if (!st.ok()) {
      if (first_error.ok()) first_error = st;
      return;
    }
    CountStored(row, outcome->result, t.sample, &summary, &progress);
  });
  summary.wall_s = clock->NowSeconds() - start;
  RG_RETURN_IF_ERROR(first_error);
  summary.stop_reason = stop_reason;
  summary.not_started = static_cast<int>(tasks.size() - std::min(tasks.size(), started.load()));
  return summary;
}

}  // namespace regrapht::bench
