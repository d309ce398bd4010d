#include "search/pipeline.h"

#include <algorithm>
#include <chrono>

#include "core/clock.h"

namespace regrapht::search {

// ---- Pipeline ---------------------------------------------------------------------

struct Pipeline::Entry {
  enum class State { kQueued, kRunning, kDone };
  std::string key;
  ChatRequest request;
  std::atomic<bool> cancel{false};
  State state = State::kQueued;
  bool dropped = false;  // discarded while running: counted when it ends
  bool claimed = false;  // the search waits for it (Claim): stays until it ends
  std::optional<Result<ChatResponse>> result;
};

namespace {

bool Usable(const Result<ChatResponse>& r) {
  if (!r.ok()) return false;
  for (const auto& c : r->choices) {
    if (c.finish_reason == FinishReason::kCancelled) return false;
  }
  return true;
}

}  // namespace

Pipeline::Pipeline(LlmBackend* llm, int max_in_flight) : llm_(llm), max_in_flight_(std::max(1, max_in_flight)) {
  for (int i = 0; i < max_in_flight_; ++i) workers_.emplace_back([this] { Work(); });
}

Pipeline::~Pipeline() { Stop(); }

void Pipeline::CountDiscardedLocked(const Entry& e) {
  ++stats_.discarded;
  if (e.result && e.result->ok()) stats_.tokens_discarded += (*e.result)->tokens_generated;
}

void Pipeline::DropLocked(const std::shared_ptr<Entry>& e) {
  entries_.erase(std::remove(entries_.begin(), entries_.end(), e), entries_.end());
  switch (e->state) {
    case Entry::State::kQueued:
      break;  // never sent: nothing to count
    case Entry::State::kRunning:
      e->dropped = true;
      e->cancel = true;
      break;
    case Entry::State::kDone:
      CountDiscardedLocked(*e);
      break;
  }
}

void Pipeline::Speculate(std::vector<ChatRequest> predicted) {
  std::lock_guard<std::mutex> lock(mu_);
  if (stopping_) return;
  std::vector<std::string> keys;
  for (const auto& r : predicted) keys.push_back(RequestKey(r));
  for (auto copy = entries_; const auto& e : copy) {
    if (!e->claimed && std::find(keys.begin(), keys.end(), e->key) == keys.end()) DropLocked(e);
  }
  for (size_t i = 0; i < predicted.size(); ++i) {
    bool have = std::any_of(entries_.begin(), entries_.end(),
                            [&](const auto& e) { return !e->claimed && e->key == keys[i]; });
    if (have) continue;
    auto e = std::make_shared<Entry>();
    e->key = keys[i];
    e->request = std::move(predicted[i]);
    e->request.cancel = &e->cancel;
    e->request.on_progress = nullptr;  // nobody waits for it yet: no live line
    entries_.push_back(std::move(e));
  }
  cv_.notify_all();
}

void Pipeline::Work() {
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    cv_.wait(lock, [&] {
      return stopping_ || std::any_of(entries_.begin(), entries_.end(),
                                      [](const auto& e) { return e->state == Entry::State::kQueued; });
    });
    if (stopping_) return;
    // One worker: everything queued goes as one batch; several: one each.
    std::vector<std::shared_ptr<Entry>> batch;
    for (const auto& e : entries_) {
      if (e->state != Entry::State::kQueued) continue;
      e->state = Entry::State::kRunning;
      ++stats_.speculated;
      batch.push_back(e);
      if (max_in_flight_ > 1) break;
    }
    std::vector<ChatRequest> requests;
    for (const auto& e : batch) requests.push_back(e->request);
    lock.unlock();
    std::vector<Result<ChatResponse>> results;
    if (requests.size() == 1) {
      results.push_back(llm_->Chat(requests[0]));
    } else {
      auto replies = llm_->ChatBatch(requests);
      for (size_t i = 0; i < requests.size(); ++i) {
        if (!replies.ok()) {
          results.push_back(replies.status());
        } else if (i < replies->size()) {
          results.push_back(std::move((*replies)[i]));
        } else {
          results.push_back(Status::Internal(llm_->Name() + ": ChatBatch lost replies"));
        }
      }
    }
    lock.lock();
    for (size_t i = 0; i < batch.size(); ++i) {
      batch[i]->result = std::move(results[i]);
      batch[i]->state = Entry::State::kDone;
      if (batch[i]->dropped) CountDiscardedLocked(*batch[i]);
    }
    cv_.notify_all();
  }
}

std::vector<std::optional<Result<ChatResponse>>> Pipeline::Claim(const std::vector<std::string>& keys,
                                                                 const std::atomic<bool>* cancel) {
  std::vector<std::optional<Result<ChatResponse>>> out(keys.size());
  std::unique_lock<std::mutex> lock(mu_);
  std::vector<std::shared_ptr<Entry>> mine(keys.size());
  bool missed = false;
  for (size_t i = 0; i < keys.size(); ++i) {
    auto it = std::find_if(entries_.begin(), entries_.end(),
                           [&](const auto& e) { return !e->claimed && e->key == keys[i]; });
    if (it == entries_.end()) {
      missed = true;
      continue;
    }
    mine[i] = *it;
    mine[i]->claimed = true;  // a queued one stays queued: a worker sends it
  }
  if (missed) {
    for (auto copy = entries_; const auto& e : copy) {
      if (!e->claimed) DropLocked(e);
    }
  }
  for (size_t i = 0; i < keys.size(); ++i) {
    const auto& e = mine[i];
    if (!e) continue;
    while (e->state != Entry::State::kDone) {
      if (cancel && cancel->load()) e->cancel = true;
      cv_.wait_for(lock, std::chrono::milliseconds(20));
    }
    entries_.erase(std::remove(entries_.begin(), entries_.end(), e), entries_.end());
    if (Usable(*e->result)) {
      ++stats_.used;
      out[i] = std::move(*e->result);
    } else {
      CountDiscardedLocked(*e);  // failed or cut short: asked again, as without the pipeline
    }
  }
  return out;
}

void Pipeline::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto copy = entries_; const auto& e : copy) DropLocked(e);
    stopping_ = true;
    cv_.notify_all();
  }
  for (auto& t : workers_) {
    if (t.joinable()) t.join();
  }
  workers_.clear();
}

PipelineStats Pipeline::stats() const {
  std::lock_guard<std::mutex> lock(mu_);
  return stats_;
}

// ---- Lookahead --------------------------------------------------------------------

namespace {

// Marks what the shadow run made up: a reply not generated yet and a
// verdict not known yet. A request that contains it depends on them.
constexpr const char* kUnknown = "\x01regrapht-lookahead-unknown\x01";

// Answers the shadow run's requests from the replies the real search got;
// the first unknown ones are the prediction.
class ReplayBackend final : public LlmBackend {
 public:
  ReplayBackend(const std::map<std::string, Result<ChatResponse>>* known, int depth, std::atomic<bool>* stop)
      : known_(known), depth_(depth), stop_(stop) {}

  Result<ChatResponse> Chat(const ChatRequest& request) override {
    if (auto it = known_->find(RequestKey(request)); it != known_->end()) return it->second;
    if (stop_->load() || DependsOnUnknown(request)) return Cut();
    ChatRequest copy = request;
    copy.cancel = nullptr;
    copy.on_progress = nullptr;
    predicted_.push_back(std::move(copy));
    if (static_cast<int>(predicted_.size()) >= depth_) return Cut();
    // A stand-in reply whose code the shadow's evaluator fails.
    ChatResponse r;
    Completion c;
    c.text = "```cuda\n// " + std::string(kUnknown) + std::to_string(predicted_.size()) +
             "\nvoid lookahead_stand_in() {}\n```";
    r.choices.push_back(std::move(c));
    return r;
  }
  std::string Name() const override { return "lookahead"; }
  std::string ModelId() const override { return "lookahead"; }
  std::vector<ChatRequest> TakePredicted() { return std::move(predicted_); }

 private:
  static bool DependsOnUnknown(const ChatRequest& r) {
    for (const auto& m : r.messages) {
      if (m.content.find(kUnknown) != std::string::npos) return true;
    }
    return false;
  }
  // Ends the shadow run: a reply cut short while its cancel flag is set.
  Result<ChatResponse> Cut() {
    stop_->store(true);
    ChatResponse r;
    r.choices.push_back({"", FinishReason::kCancelled, 0, 0, {}});
    return r;
  }

  const std::map<std::string, Result<ChatResponse>>* known_;
  int depth_;
  std::atomic<bool>* stop_;
  std::vector<ChatRequest> predicted_;
};

// The real search's verdicts; a candidate not verified yet fails, with a
// message that marks whatever quotes it.
class ReplayEvaluator final : public CandidateEvaluator {
 public:
  explicit ReplayEvaluator(const std::map<std::string, Result<VerifyResult>>* known) : known_(known) {}
  Result<VerifyResult> Evaluate(const Problem&, const std::string& code) override {
    if (auto it = known_->find(code); it != known_->end()) return it->second;
    VerifyResult r;
    r.verdict = Verdict::kCompileError;
    r.detail = std::string(kUnknown) + " (assumed to fail)";
    return r;
  }

 private:
  const std::map<std::string, Result<VerifyResult>>* known_;
};

}  // namespace

Lookahead::Lookahead(std::string method, const SearchOptions& options, const SearchTask& task,
                     const PromptLibrary* prompts)
    : method_(std::move(method)), options_(options), task_(task), prompts_(prompts) {
  options_.pipeline = 1;                 // the shadow does not look ahead itself
  options_.budget.max_wall_seconds = 0;  // its clock stands still; the real search's clock decides
  options_.max_in_flight = 1;            // requests one by one, in the order the search uses them
}

void Lookahead::RecordReply(const ChatRequest& request, const Result<ChatResponse>& reply) {
  replies_.insert_or_assign(RequestKey(request), reply);
}

void Lookahead::RecordVerdict(const std::string& code, const Result<VerifyResult>& result) {
  verdicts_.insert_or_assign(code, result);
}

std::vector<ChatRequest> Lookahead::Predict(int depth) const {
  if (depth <= 0) return {};
  auto reasoner = NewReasoner(method_, options_);
  if (!reasoner.ok()) return {};
  std::atomic<bool> stop{false};
  ReplayBackend backend(&replies_, depth, &stop);
  ReplayEvaluator evaluator(&verdicts_);
  FakeClock clock;
  SearchContext ctx;
  ctx.llm = &backend;
  ctx.evaluator = &evaluator;
  ctx.prompts = prompts_;
  ctx.clock = &clock;
  ctx.cancel = &stop;
  // Whatever the shadow run ends with (an error included), its requests so
  // far are what the real search asks next.
  (void)(*reasoner)->Run(task_, ctx);
  return backend.TakePredicted();
}

}  // namespace regrapht::search
