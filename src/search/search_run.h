// SearchRun: the state every method shares while it searches: the budget
// (its stoppers, stop.h), the log of attempts, prompts, model calls, code
// extraction, verification (with reuse for duplicate code) and the choice
// of the best candidate.
//
// Methods (mcgs.cc, baselines.cc, action_mcts.cc) only decide *what* to ask
// the model next; SearchRun does the asking, checking and bookkeeping.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "regrapht/search.h"
#include "search/pipeline.h"
#include "search/prompts.h"
#include "search/stop.h"

namespace regrapht {

class ExampleIndex;

namespace search {

// An example shown in a step prompt: one worked transition.
struct ShownExample {
  std::string from, to;  // technique names
  std::string think, detail, before, after;
};

class SearchRun {
 public:
  SearchRun(const SearchTask& task, const SearchContext& context, const SearchOptions& options,
            std::string method);
  ~SearchRun();  // stops the pipeline, if any

  // True when a budget is spent (its Stopper, stop.h), the search was
  // cancelled, the harness failed or the endpoint failed too often in a
  // row; `why` says which.
  bool Exhausted(std::string* why = nullptr) const;

  // The system message (the contract).
  Result<std::string> SystemPrompt() const;

  // Messages of a step: apply `technique` (graph node) to `code`, showing
  // `examples` and, when refining, the previous `failure`. Examples are cut
  // to fit the context (docs/search.md).
  Result<std::vector<ChatMessage>> StepMessages(const std::string& code, NodeId technique,
                                                std::vector<ShownExample> examples,
                                                const std::string& failure) const;
  // Messages from a template with `{{code}}` etc., wrapped with the system prompt.
  Result<std::vector<ChatMessage>> Messages(const std::string& template_name,
                                            std::map<std::string, std::string> vars) const;

  // Asks the model, extracts code, verifies it and records an Attempt.
  // Returns its index. A request that fails (after the backend's retries) is
  // recorded as a failed Attempt with endpoint_error set, not returned. `parent` is the attempt whose code the prompt started
  // from (-1: the sequential code). With `json_steps` the reply is read as
  // the paper's list of steps and the last step's code is taken.
  Result<int> Generate(const std::vector<ChatMessage>& messages, int parent, const std::string& action,
                       int graph_node);
  // Generate() in two halves, for methods whose requests do not depend on
  // one another (best-of-n): AskMany sends `count` requests for `messages`
  // at once (at most options().max_in_flight at a time; with 1, as one
  // LlmBackend::ChatBatch, which the embedded model decodes as one batch;
  // a failed batch is a failed request for each of its requests),
  // with the seeds that `count` Generate() calls would use, and returns the
  // replies in seed order (those the pipeline generated ahead are taken
  // from it); Consume does the rest of one Generate() with one reply (extract,
  // verify, record; with pipelining, the next requests are sent ahead while
  // it verifies). Consuming the replies in order records what `count`
  // Generate() calls would have recorded (a failed request included).
  std::vector<Result<ChatResponse>> AskMany(const std::vector<ChatMessage>& messages, int count);
  Result<int> Consume(Result<ChatResponse> reply, int parent, const std::string& action, int graph_node);
  // Verifies the task's seed (SearchTask::seed_code) and records it as an
  // attempt by the rules (Attempt::by_rules): a verification, no
  // generation, no tokens.
  Result<int> Seed(const std::string& action, int graph_node);
  // Generations the budget still allows; -1: no generation limit.
  int GenerationsLeft() const;
  // Asks the model for plain text (counts as a generation, nothing verified).
  // A failed request counts as an endpoint failure and gives "".
  // The output shape of a code request (options().shape; empty when off).
  OutputShape CodeShape() const;
  Result<std::string> ChatText(const std::vector<ChatMessage>& messages);

  const Attempt& attempt(int i) const { return attempts_[i]; }
  const std::vector<Attempt>& attempts() const { return attempts_; }
  bool Interrupted() const { return context_.cancel != nullptr && context_.cancel->load(); }
  // More than max_endpoint_failures failed requests in a row.
  bool EndpointLimitReached() const;
  bool Failed(int attempt) const;   // SearchReward == -1: a failing step
  double Reward(int attempt) const { return attempts_[attempt].reward; }
  int generations() const { return generations_; }

  // The examples of `edge` most similar to `code` (BM25), best first.
  std::vector<ShownExample> EdgeExamples(const std::string& code, EdgeId edge, int k) const;
  // Sequential -> final CUDA pairs of the most similar corpus kernels (RAG).
  std::vector<ShownExample> SimilarKernels(const std::string& code, int k) const;
  // The best-matching single transitions from the whole pool (MCTS-RAG).
  std::vector<ShownExample> PoolExamples(const std::string& code, int k) const;

  const SearchTask& task() const { return task_; }
  const SearchOptions& options() const { return options_; }
  std::string TechniqueName(NodeId node) const;
  std::string TechniqueId(NodeId node) const;
  uint64_t NextSeed();
  void Emit(int iteration, const std::string& action);

  // Picks the best attempt and packs the outcome.
  SearchOutcome Finish(std::string tree_json, std::string stop_reason);

 private:
  Result<int> Record(Attempt a);
  // Verifies `a.code` (or reuses the verdict of the same code), fills in the
  // verdict and reward, and records it.
  Result<int> Check(Attempt a);
  // Sends one request with the context's cancel flag (thread-safe), or
  // takes the pipeline's reply to it when it was generated ahead.
  Result<ChatResponse> Ask(ChatRequest request);
  // Ask() without the pipeline.
  Result<ChatResponse> AskModel(ChatRequest request) const;
  // Pipelining (options().pipeline > 1): before a verification, the next
  // requests are predicted and sent ahead (pipeline.h).
  void SendAhead();
  void NoteReply(const ChatRequest& request, const Result<ChatResponse>& reply);
  // Counts a request's success (resets the count in a row) or failure.
  void NoteEndpointResult(const Status& status);
  // Records the failed request as a failed Attempt.
  Result<int> RecordEndpointFailure(const Status& status, int parent, const std::string& action, int graph_node);
  std::atomic<int>& InARow() const;

  SearchTask task_;
  SearchContext context_;
  SearchOptions options_;
  std::string method_;
  const Clock* clock_;
  double start_s_;
  BudgetStoppers budget_;
  int generations_ = 0;
  int verifications_ = 0;
  int64_t tokens_prompt_ = 0, tokens_generated_ = 0;
  uint64_t seed_counter_ = 0;
  std::vector<Attempt> attempts_;
  std::map<std::string, int> by_hash_;  // code hash -> first attempt with it
  int last_iteration_ = 0;
  int endpoint_failures_ = 0;
  Status harness_error_;  // the evaluator failed: the search stops
  std::vector<std::string> endpoint_errors_;
  mutable std::atomic<int> own_in_a_row_{0};  // when the context shares none
  // Pipelining; null when off. lookahead_mu_ guards lookahead_'s records
  // (AskMany's threads).
  std::unique_ptr<Lookahead> lookahead_;
  std::mutex lookahead_mu_;
  std::unique_ptr<Pipeline> pipeline_;
};

}  // namespace search
}  // namespace regrapht
