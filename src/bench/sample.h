// One sample of a search method over a suite problem, as `bench` runs it: the
// search, its best candidate (or its first attempt, which says why it failed),
// the held-out re-check of that candidate, and what the caches served. The
// CLI builds the environment from its flags; this is the library's part, so a
// program can benchmark a method without the CLI (with RunSuite, runner.h).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <semaphore>
#include <string>

#include "bench/runner.h"
#include "regrapht/search.h"

namespace regrapht::bench {

// Verifications of concurrent samples, at most `jobs` at a time: model
// requests may be many in flight, compiles and emulated runs share the CPUs.
// (GPU timing runs are serialised per GPU by the Verifier itself.)
class BoundedEvaluator final : public CandidateEvaluator {
 public:
  BoundedEvaluator(CandidateEvaluator* inner, int jobs) : inner_(inner), slots_(std::max(1, jobs)) {}
  Result<VerifyResult> Evaluate(const Problem& problem, const std::string& code) override {
    slots_.acquire();
    auto r = inner_->Evaluate(problem, code);
    slots_.release();
    return r;
  }

 private:
  CandidateEvaluator* inner_;
  std::counting_semaphore<1024> slots_;
};

// What every sample of one search method shares. Pointers are not owned and
// must outlive the samples; the samples may run on several threads at once.
struct SearchSampleEnv {
  std::string method;                 // a NewReasoner name
  SearchOptions options;              // the run's; each sample gets its own seed
  const Graph* graph = nullptr;
  const ExampleIndex* examples = nullptr;
  LlmBackend* llm = nullptr;
  const PromptLibrary* prompts = nullptr;
  CandidateEvaluator* evaluator = nullptr;  // the search's and the held-out run's
  const std::atomic<bool>* cancel = nullptr;
  std::atomic<int>* endpoint_failures_in_a_row = nullptr;
  bool heldout = true;  // re-verify the best candidate on held-out inputs (verify/heldout.h)
  // Fills what the task needs per problem besides problem, graph and examples
  // (the kernel form's task, the rules' seed). May be empty.
  std::function<void(const Problem&, SearchTask*)> prepare_task;
  // Called with the last endpoint error of a sample that had some. May be empty.
  std::function<void(const std::string&)> on_endpoint_error;
};

// Runs `env.method` on `p` with search seed `seed` and returns the sample:
// incomplete (not stored, redone on resume) when interrupted or when the
// endpoint decided the outcome; otherwise the best attempt's result, replaced
// by its held-out run's (the search's kept as search_result) when
// env.heldout and the result calls for one (NeedsHeldOutRun). A harness
// failure during the search is returned as its Status unless cancelled.
Result<SampleOutcome> RunSearchSample(const SearchSampleEnv& env, const SuiteProblem& p, uint64_t seed);

// The method's trace with why its search stopped ("stop_reason"), so that a
// row says why a method spent less than its budget (report's budget block).
std::string WithStopReason(const std::string& trace, const std::string& stop_reason);

// What the caches served a sample: replies of the response cache and builds
// of the build cache (a reused verification of duplicate code is neither).
void CountCaches(const SearchOutcome& out, SampleOutcome* o);

}  // namespace regrapht::bench
