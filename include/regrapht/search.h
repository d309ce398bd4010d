// Search: turning a problem's sequential code into the best verified CUDA a
// small model can find, by ReGraphT's Monte Carlo Graph Search (MCGS) over
// the reasoning graph, or by one of the paper's baselines.
//
//   auto reasoner = NewReasoner("regrapht-mcgs", options);
//   SearchContext ctx{llm, evaluator, prompts, clock};
//   Result<SearchOutcome> out = (*reasoner)->Run(task, ctx);
//
// Every method spends the same currency: one *generation* is one request to
// the small model followed by one verification of the code it returned
// (duplicates of already-verified code reuse that result). Budgets are stop
// conditions (generations, verifications, wall clock) checked between
// generations.
//
// A method returns every attempt it made, the best candidate (the correct
// one with the highest speedup; without a GPU, by the compile-only rule in
// docs/search.md) and a JSON dump of its search tree. A candidate that fails
// is data, and so is a model request that failed after the backend's own
// retries (endpoint down, HTTP 500, a deadline): it is a failed generation,
// an Attempt with `endpoint_error` and the reason, and the search goes on
// until SearchOptions::max_endpoint_failures such failures in a row, when it
// stops early (SearchOutcome::endpoint_stopped) with what it found so far.
// SearchContext::cancel stops a search the same way (SearchOutcome::
// interrupted). The harness failing (the evaluator's Status: nvcc missing,
// disk full) stops the search too, with SearchOutcome::error set, so that
// what was found is kept. A Status from Run means the method could not run
// at all (a prompt template broken, no graph).
//
// Thread safety: a Reasoner runs one search at a time; separate Reasoners may
// run concurrently if their LLM backend and evaluator allow it.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "regrapht/clock.h"
#include "regrapht/graph.h"
#include "regrapht/llm.h"
#include "regrapht/problem.h"
#include "regrapht/prompts.h"
#include "regrapht/status.h"
#include "regrapht/verify.h"

namespace regrapht {

// The index of a graph's worked examples that graph and retrieval methods
// pick examples from (BM25 over their code; inside the library,
// graph/retrieval.h). Opaque here: made by NewExampleIndex.
class ExampleIndex;
struct ExampleIndexDeleter {
  void operator()(const ExampleIndex* index) const;
};
using ExampleIndexPtr = std::unique_ptr<ExampleIndex, ExampleIndexDeleter>;
// Indexes every example of `graph` (BM25), which must outlive the index and
// gain no examples while it is used.
ExampleIndexPtr NewExampleIndex(const Graph& graph);

// Verifies candidates for a search; a seam so tests can script results.
class CandidateEvaluator {
 public:
  virtual ~CandidateEvaluator() = default;
  // Non-OK only when the harness itself failed.
  virtual Result<VerifyResult> Evaluate(const Problem& problem, const std::string& code) = 0;
};

// The Verifier as an evaluator. `verifier` must outlive it.
std::unique_ptr<CandidateEvaluator> NewVerifierEvaluator(Verifier* verifier);

// The reward a search optimises: the paper's reward (-1 unless correct;
// speedup - 1 when slower; speedup otherwise), except that a compiled_only
// result (no GPU) scores 0, so that without a GPU the search still prefers
// code that compiles over code that does not. Such rewards are unverified.
double SearchReward(const VerifyResult& result);

struct Budget {
  int max_generations = 200;     // the paper's budget
  int max_verifications = 0;     // 0: no limit beyond generations
  double max_wall_seconds = 0;   // 0: no limit
};

// One generation and its verification.
struct Attempt {
  int id = 0;
  int parent = -1;                 // attempt whose code was the starting point; -1: the sequential code
  std::string action;              // technique id, "standard", "thought: ...", "example: ..."
  int graph_node = -1;             // MCGS/regrapht: the graph node reached
  std::string code;
  std::string code_hash;
  Verdict verdict = Verdict::kCompileError;
  std::string detail;
  double speedup = 0;
  double reward = -1;              // SearchReward
  bool reused = false;             // same code as an earlier attempt: its verification reused
  // The model request failed (after the backend's retries): no reply, no
  // code; `detail` says why. Verdict compile_error, reward -1.
  bool endpoint_error = false;
  // Written by the rules (SearchTask::seed_code), not by the model: no
  // request, no tokens, no generation.
  bool by_rules = false;
  // Cut short by a cancellation (SearchContext::cancel: Ctrl-C, a time
  // limit): the reply, or its check, did not finish, so there is no verdict
  // about the code (`verdict` stays compile_error for the reward, -1; reports
  // say "interrupted"). A reply cut short is not a generation.
  bool interrupted = false;
  bool reply_cached = false;       // the reply came from the response cache (NewCachedBackend)
  int tokens_prompt = 0, tokens_generated = 0;
  double time_generation_ms = 0, time_verify_ms = 0;
  VerifyResult result;             // the whole verification
};

// "interrupted" for an interrupted attempt, else VerdictName(verdict): the
// one spelling of an attempt's outcome in reports and progress lines.
std::string_view AttemptVerdictName(const Attempt& attempt);

struct SearchOutcome {
  std::string method;
  int best = -1;                   // index into attempts; -1: nothing usable
  bool best_verified = false;      // best is correct on a GPU
  std::string best_rule;           // how `best` was chosen
  std::vector<int> best_path;      // attempt ids from the first step to `best`
  std::vector<Attempt> attempts;
  std::string tree_json;           // the method's search tree / trace
  int generations = 0, verifications = 0;
  int64_t tokens_prompt = 0, tokens_generated = 0;
  double wall_s = 0;
  std::string stop_reason;         // "budget: 200 generations", "iterations done", ...
  // Model requests that failed after the backend's retries (each one also a
  // generation; thought proposals of rethink-mcts included), and why.
  int endpoint_failures = 0;
  std::vector<std::string> endpoint_errors;
  bool endpoint_stopped = false;   // stopped early: max_endpoint_failures in a row
  bool interrupted = false;        // stopped early: SearchContext::cancel was set
  // Pipelining (SearchOptions::pipeline > 1): requests sent to the model
  // before the search asked for them, how many of their replies it used, and
  // the ones it never used, with their generated tokens. Discarded
  // generations are not generations of the search: they are not in
  // `generations`, `tokens_generated` or `attempts`.
  int pipeline_speculated = 0, pipeline_used = 0;
  int discarded_generations = 0;
  int64_t tokens_discarded = 0;
  // Not OK: the harness failed (the evaluator returned a Status: nvcc
  // missing, disk full); the search stopped at once with what it had, and
  // the attempt being verified says so.
  Status error;

  const Attempt* best_attempt() const { return best >= 0 ? &attempts[best] : nullptr; }
  // The endpoint, not the method, decided the outcome: the search stopped on
  // endpoint failures, or every request it made failed.
  bool endpoint_failed() const {
    return endpoint_stopped || (generations > 0 && endpoint_failures >= generations);
  }
};

struct SearchTask {
  const Problem* problem = nullptr;       // required
  const Graph* graph = nullptr;           // required by graph methods
  const ExampleIndex* examples = nullptr; // required by graph and retrieval methods
  // The kernel form (ParEval's task; REQUIRES problem->spec.kernel): the
  // model writes the __global__ kernel the spec declares, and `kernel_task`
  // (e.g. ParEval's CUDA prompt) is shown where the sequential code would be.
  bool kernel_form = false;
  std::string kernel_task;
  // A first step written without a model (the rules' seed, src/seed/seed.h;
  // empty: none). MCGS makes it the root's first child, reached by the
  // graph's `seed_technique` edge, before its first selection; "rules"
  // writes it alone. It costs no generation (one verification), and the
  // model's later steps start from it when it passed. Other methods ignore it.
  std::string seed_code;
  std::string seed_technique = "thread_mapping";
  std::string seed_note;  // no seed: why (the "rules" method's stop reason)

  // What the methods start from: the sequential reference, or the kernel task.
  const std::string& StartCode() const { return kernel_form ? kernel_task : problem->reference_source; }
};

// Progress reports, e.g. for the terminal.
struct SearchEvent {
  int generation = 0;
  int iteration = 0;
  std::string action;         // the technique or step being applied
  std::string verdict;
  double best_speedup = 0;    // best verified so far (0: none)
  std::string best_verdict;   // of the current best
  // Of the attempt that just finished (empty / 0 before the first): why it
  // failed (its detail), and the tokens its reply took.
  std::string detail;
  int tokens_generated = 0;
  bool by_rules = false;  // that attempt is the rules' seed
  bool reply_cached = false;  // its reply came from the response cache
};

struct SearchContext {
  LlmBackend* llm = nullptr;              // required, not owned
  CandidateEvaluator* evaluator = nullptr;  // required, not owned
  const PromptLibrary* prompts = nullptr; // required, not owned
  const Clock* clock = nullptr;           // null: the system clock
  std::function<void(const SearchEvent&)> on_event;
  // Handed to every model request as ChatRequest::on_progress (the embedded
  // backend reports tokens as it generates them). May be empty.
  std::function<void(const GenerationProgress&)> on_generation = nullptr;
  // Set (e.g. by SIGINT): the search stops at its next check and model
  // requests in flight end early; the outcome says `interrupted`. Not owned;
  // may be null.
  const std::atomic<bool>* cancel = nullptr;
  // Failed model requests in a row, shared by searches that use one endpoint
  // (bench's samples), so that a dead endpoint stops them all; a successful
  // request resets it. Not owned; null: this search counts its own.
  std::atomic<int>* endpoint_failures_in_a_row = nullptr;
};

struct SearchOptions {
  Budget budget;
  uint64_t seed = 1;
  SamplingParams sampling;       // temperature 0.7, top_p 0.9 (the paper's)
  int context_tokens = 8192;     // prompts are truncated to fit (docs/search.md)
  std::string arch = "sm_90";    // the GPU architecture(s) the prompt names (the verifier's --arch)
  int examples_per_step = 1;     // examples shown from the chosen edge
  // MCGS (the paper's Eq. 1 and 2).
  double exploration_c = 1.41421356237;  // P-UCB constant (sqrt 2)
  double rollout_epsilon = 0.1;  // random action with this probability
  double rollout_lambda = 0.5;   // visit penalty in Q(s,a) - lambda * N(s,a)
  int rollouts = 1;              // rollouts from each new state per iteration (the paper: N = 10)
  int max_depth = 6;             // step cap of a path (selection + rollout)
  int iterations = 0;            // MCGS iterations; 0: until the budget is spent
  bool share_transpositions = true;  // one node per (technique, code hash)
  // The Q that selection and rollouts rank edges by: the mean of the values
  // backed up through the child (ours), or the largest of them
  // (NodeStats::value_max: the paper's max backup).
  enum class QRule { kMean, kMax };
  QRule q = QRule::kMean;
  // A failed step may be sampled again this many times; after 1 +
  // step_retries failures its edge is closed. close_failed_edges false (the
  // paper): a failed edge is never closed, however often it failed.
  int step_retries = 2;
  bool close_failed_edges = true;
  // The protocol these options follow: "ours" (the defaults here) or
  // "paper" (ApplyPaperProtocol). Features that the paper does not have
  // read it and stay off under "paper" (e.g. a rule-based first step).
  std::string protocol = "ours";
  // Baselines.
  int walk_attempts = 5;         // regrapht (no MCGS): tries per step; walks repeat until the budget
  int thoughts_per_node = 3;     // rethink-mcts: thoughts proposed per node
  int refine_attempts = 1;       // rethink-mcts: refinements of a failing step
  int rag_examples = 2;          // rag / mcts-rag: examples per prompt
  // Requests a method may have outstanding at once where its requests do not
  // depend on one another (best-of-n's samples). Does not change results:
  // seeds and the order replies are used in are those of one at a time.
  int max_in_flight = 1;
  // Pipelining (docs/search.md "Pipelining"): candidates in flight at once.
  // With N > 1, while a candidate is verified the next N - 1 requests the
  // search would send if the candidates not verified yet failed are
  // generated ahead (one ChatBatch when several are due and max_in_flight
  // is 1). Does not change results: the search sends the same requests in
  // the same order and uses only replies to exactly those; a reply it does
  // not ask for is discarded (SearchOutcome::discarded_generations).
  // 0 or 1: off, one request at a time.
  int pipeline = 1;
  // Model requests that may fail in a row (after the backend's retries)
  // before the search stops early; each failure is a failed generation.
  // Does not change the results of a search whose requests succeed.
  int max_endpoint_failures = 5;
  // Output shaping of replies that must hold code (every method's code
  // requests except cot's, whose reply starts with its reasoning).
  ShapeOptions shape;
};

// The paper's protocol (docs/search.md "The paper's protocol"): rollouts
// 10, max backup in selection, failed edges never closed, the paper's
// budget of 200 generations; protocol = "paper". Held-out re-timing is not
// a search option: the callers (optimize, bench) turn it off themselves.
void ApplyPaperProtocol(SearchOptions* options);

class Reasoner {
 public:
  virtual ~Reasoner() = default;
  virtual Result<SearchOutcome> Run(const SearchTask& task, const SearchContext& context) = 0;
  virtual std::string Name() const = 0;
};

// Methods: "standard", "cot", "rag", "regrapht", "best-of-n", "rethink-mcts",
// "mcts-rag", "regrapht-mcgs", and "rules" (no model: the task's seed alone).
// InvalidArgument for any other name.
Result<std::unique_ptr<Reasoner>> NewReasoner(const std::string& method, const SearchOptions& options);
std::vector<std::string> ReasonerNames();
// Whether the method needs the reasoning graph.
bool NeedsGraph(const std::string& method);

}  // namespace regrapht
