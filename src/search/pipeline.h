// Pipelining a search (docs/search.md, "Pipelining"): the model generates
// the next candidate while the current one is compiled and verified.
//
// Two parts, both owned by SearchRun when SearchOptions::pipeline > 1:
//
//   Lookahead  predicts the requests the search will send next. It replays
//              the search so far (a shadow run of the same method, with the
//              replies and verdicts already known, no model, no harness)
//              with every candidate whose verification is not known yet
//              assumed to fail, and collects the first requests that are not
//              answered yet. A request whose text depends on an unknown
//              verdict (a retry or refinement that quotes it) ends the
//              prediction: it is never sent early.
//   Pipeline   sends predicted requests to the model on its own thread(s)
//              and hands a reply over when the search asks for exactly that
//              request (same messages, sampling, seed, shape: RequestKey).
//              A prediction the search does not ask for is cancelled and its
//              reply dropped; it is counted (PipelineStats), never recorded.
//
// So the search itself asks for the same requests in the same order as
// without pipelining and uses replies to exactly those requests: its
// attempts, tree and stop point are those of the sequential order whenever
// the backend answers a request the same way whenever it is sent (the fakes;
// the embedded model up to the floating-point effects of batching, docs/llm.md).
//
// Thread safety: Pipeline's methods may be called from any thread; its
// workers only call the backend. Lookahead is called from one thread at a
// time (SearchRun serialises it).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "llm/request_key.h"
#include "regrapht/search.h"

namespace regrapht::search {

// Requests are matched by regrapht::RequestKey (llm/request_key.h): the
// response cache's identity of a request, without the backend.

// What a pipeline did (SearchOutcome's pipeline_* fields).
struct PipelineStats {
  int speculated = 0;            // requests sent to the model before the search asked for them
  int used = 0;                  // of those, replies the search took
  int discarded = 0;             // sent, never used (mispredicted, past a stop, cancelled, failed)
  int64_t tokens_discarded = 0;  // tokens the discarded ones generated
};

class Pipeline {
 public:
  // `llm` (not owned) answers the speculative requests. With max_in_flight
  // <= 1 one worker sends everything queued as one LlmBackend::ChatBatch
  // (one Chat when only one is queued); with more, that many workers send
  // one request each.
  Pipeline(LlmBackend* llm, int max_in_flight);
  ~Pipeline();  // Stop()
  Pipeline(const Pipeline&) = delete;
  Pipeline& operator=(const Pipeline&) = delete;

  // Makes `predicted` (in order) the requests generated ahead: one already
  // queued, running or answered with the same key stays, every other is
  // cancelled and dropped, new ones are queued.
  void Speculate(std::vector<ChatRequest> predicted);

  // For each key: the reply of the speculation with that key, waited for
  // (one still queued is sent first), or nullopt when there is none, when
  // it failed or was cut short (the caller then sends the request itself). When some key has no
  // speculation the prediction went wrong and every other speculation is
  // dropped. While waiting, a set `cancel` (may be null) cancels the
  // awaited requests.
  std::vector<std::optional<Result<ChatResponse>>> Claim(const std::vector<std::string>& keys,
                                                         const std::atomic<bool>* cancel);

  // Cancels and drops every speculation and waits for the workers to end.
  // Idempotent.
  void Stop();

  PipelineStats stats() const;

 private:
  struct Entry;
  void Work();
  // REQUIRES: mu_ held. Removes `e` from entries_ and cancels it if it runs.
  void DropLocked(const std::shared_ptr<Entry>& e);
  void CountDiscardedLocked(const Entry& e);

  LlmBackend* llm_;
  int max_in_flight_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::shared_ptr<Entry>> entries_;  // queued, running and answered, not yet claimed
  bool stopping_ = false;
  PipelineStats stats_;
  std::vector<std::thread> workers_;
};

// Predicts a search's next requests by replaying it (see the top of this
// file). `method` is a NewReasoner name; `task` and `prompts` must outlive it.
class Lookahead {
 public:
  Lookahead(std::string method, const SearchOptions& options, const SearchTask& task,
            const PromptLibrary* prompts);

  // What the real search learnt: a reply to `request`, a verdict for `code`.
  void RecordReply(const ChatRequest& request, const Result<ChatResponse>& reply);
  void RecordVerdict(const std::string& code, const Result<VerifyResult>& result);

  // The next `depth` requests the search will send if every candidate not
  // verified yet fails (fewer when it would stop, or when the next one
  // quotes an unknown verdict). The shadow run does not count as a search:
  // no model, no harness, no events.
  std::vector<ChatRequest> Predict(int depth) const;

 private:
  std::string method_;
  SearchOptions options_;
  SearchTask task_;
  const PromptLibrary* prompts_;
  std::map<std::string, Result<ChatResponse>> replies_;  // by RequestKey
  std::map<std::string, Result<VerifyResult>> verdicts_;  // by code
};

}  // namespace regrapht::search
