#include "bench/sample.h"

#include <exception>

#include "core/json_util.h"
#include "verify/spec/heldout.h"

namespace regrapht::bench {

std::string WithStopReason(const std::string& trace, const std::string& stop_reason) {
  if (trace.empty()) return trace;
  try {
    OrderedJson j = OrderedJson::parse(trace);
    if (!j.is_object()) return trace;
    j["stop_reason"] = stop_reason;
    return j.dump(1);
  } catch (const std::exception&) {
    return trace;
  }
}

void CountCaches(const SearchOutcome& out, SampleOutcome* o) {
  for (const Attempt& a : out.attempts) {
    if (a.endpoint_error || a.interrupted) continue;
    ++o->replies;
    o->replies_cached += a.reply_cached;
    if (a.reused || a.code.empty()) continue;
    ++o->builds;
    o->builds_cached += a.result.compile_cached;
  }
}

namespace {

bool Cancelled(const SearchSampleEnv& env) { return env.cancel && env.cancel->load(); }

// The sample of a search that finished: its best attempt (or its first,
// which says why it failed), re-verified on held-out inputs where called for.
Result<SampleOutcome> SampleOfOutcome(const SearchSampleEnv& env, const SuiteProblem& p, uint64_t seed,
                                      const SearchOutcome& out) {
  SampleOutcome o;
  CountCaches(out, &o);
  o.tokens_prompt = out.tokens_prompt;
  o.tokens_generated = out.tokens_generated;
  o.generations = out.generations;
  o.verifications = out.verifications;
  o.search_json = WithStopReason(out.tree_json, out.stop_reason);
  const Attempt* a = out.best_attempt();
  if (!a && !out.attempts.empty()) a = &out.attempts.front();
  if (!a) {
    o.result.verdict = Verdict::kCompileError;
    o.result.detail = "the method made no attempt (" + out.stop_reason + ")";
    return o;
  }
  o.source = a->code;
  o.result = a->result;
  if (env.heldout && NeedsHeldOutRun(a->result)) {
    o.search_result = a->result;
    // Through the evaluator, like the search's own verifications.
    RG_ASSIGN_OR_RETURN(o.result,
                        env.evaluator->Evaluate(HeldOutProblem(p.problem, HeldOutSalt(seed)), o.source));
    ++o.verifications;
    ++o.builds;
    o.builds_cached += o.result.compile_cached;
    if (Cancelled(env)) o.incomplete = "interrupted during its held-out verification";
  }
  return o;
}

}  // namespace

Result<SampleOutcome> RunSearchSample(const SearchSampleEnv& env, const SuiteProblem& p, uint64_t seed) {
  SearchOptions so = env.options;
  so.seed = seed;
  RG_ASSIGN_OR_RETURN(auto reasoner, NewReasoner(env.method, so));
  SearchTask task;
  task.problem = &p.problem;
  task.graph = env.graph;
  task.examples = env.examples;
  if (env.prepare_task) env.prepare_task(p.problem, &task);
  SearchContext ctx;
  ctx.llm = env.llm;
  ctx.evaluator = env.evaluator;
  ctx.prompts = env.prompts;
  ctx.cancel = env.cancel;
  ctx.endpoint_failures_in_a_row = env.endpoint_failures_in_a_row;
  RG_ASSIGN_OR_RETURN(SearchOutcome out, reasoner->Run(task, ctx));
  if (!out.error.ok() && !Cancelled(env)) return out.error;  // the run stops, rows kept
  if (!out.endpoint_errors.empty() && env.on_endpoint_error) env.on_endpoint_error(out.endpoint_errors.back());
  // A sample the method could not finish is not a result: not stored, redone
  // on resume. One whose requests partly failed is (the failed generations
  // are in its trace, with their reasons).
  SampleOutcome o;
  if (out.interrupted) {
    o.incomplete = "interrupted";
    return o;
  }
  if (out.endpoint_failed()) {
    o.incomplete =
        out.endpoint_stopped ? out.stop_reason : "every model request failed; last: " + out.endpoint_errors.back();
    o.endpoint_failed = true;
    return o;
  }
  return SampleOfOutcome(env, p, seed, out);
}

}  // namespace regrapht::bench
