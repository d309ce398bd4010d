// Several servers of one model behind one LlmBackend: round-robin with
// health tracking (include/regrapht/llm.h, NewReplicaBackend).
//
//   request k  ->  replicas in order  k mod n, k+1 mod n, ...  (resting ones
//                  moved to the end, soonest back first)
//   failure    ->  rest  min(max, initial * 2^(failures in a row - 1)); a
//                  failure while resting (a request sent before) adds nothing
//   success    ->  failures in a row = 0
#include <algorithm>
#include <mutex>

#include "core/clock.h"
#include "core/log.h"
#include "regrapht/llm.h"

namespace regrapht {
namespace {

// Errors that say the server is unwell, not that the request is bad.
bool ServerFault(const Status& s) {
  return s.code() == Status::Code::kUnavailable || s.code() == Status::Code::kDeadlineExceeded ||
         s.code() == Status::Code::kIoError;
}

// The replicas' id when they share one; "m@u1,u2" when every id is "m@<url>"
// with the same m; else the ids joined.
std::string JoinModelIds(const std::vector<std::unique_ptr<LlmBackend>>& replicas) {
  std::string first = replicas.front()->ModelId();
  bool same = true;
  for (const auto& r : replicas) same &= r->ModelId() == first;
  if (same) return first;
  size_t at = first.rfind('@');
  std::string model = at == std::string::npos ? "" : first.substr(0, at + 1);
  bool same_model = !model.empty();
  for (const auto& r : replicas) same_model &= r->ModelId().rfind(model, 0) == 0;
  std::string out = same_model ? model : "";
  for (size_t i = 0; i < replicas.size(); ++i) {
    std::string id = replicas[i]->ModelId();
    out += (i ? "," : "") + (same_model ? id.substr(model.size()) : id);
  }
  return out;
}

class ReplicaBackend final : public LlmBackend {
 public:
  ReplicaBackend(std::vector<std::unique_ptr<LlmBackend>> replicas, const ReplicaOptions& options,
                 const Clock* clock)
      : replicas_(std::move(replicas)),
        options_(options),
        clock_(clock ? clock : SystemClock::Get()),
        health_(replicas_.size()),
        model_id_(JoinModelIds(replicas_)) {}

  Result<ChatResponse> Chat(const ChatRequest& request) override {
    return Route<ChatResponse>([&](LlmBackend* b) { return b->Chat(request); });
  }
  Result<std::vector<std::vector<float>>> Embed(const std::vector<std::string>& texts) override {
    return Route<std::vector<std::vector<float>>>([&](LlmBackend* b) { return b->Embed(texts); });
  }
  std::string Name() const override { return replicas_.front()->Name(); }
  std::string ModelId() const override { return model_id_; }

 private:
  struct Health {
    int failures = 0;         // in a row
    double resting_until = 0;
  };

  template <typename T, typename F>
  Result<T> Route(F&& call) {
    Status last;
    for (size_t i : Order()) {
      Result<T> r = call(replicas_[i].get());
      if (r.ok()) {
        MarkUp(i);
        return r;
      }
      if (!ServerFault(r.status())) return r.status();
      MarkDown(i, r.status());
      last = r.status();
    }
    return last.WithContext("all " + std::to_string(replicas_.size()) + " replicas failed");
  }

  // Replicas for the next request: the round-robin order, resting ones last.
  std::vector<size_t> Order() {
    std::lock_guard lock(mu_);
    const double now = clock_->NowSeconds();
    const size_t n = replicas_.size();
    const size_t start = next_ % n;
    std::vector<size_t> ready, resting;
    for (size_t k = 0; k < n; ++k) {
      size_t i = (start + k) % n;
      (health_[i].resting_until <= now ? ready : resting).push_back(i);
    }
    // The turn passes to the replica after the one chosen, so a resting
    // replica's share spreads over the others.
    next_ = ((ready.empty() ? start : ready.front()) + 1) % n;
    std::stable_sort(resting.begin(), resting.end(),
                     [&](size_t a, size_t b) { return health_[a].resting_until < health_[b].resting_until; });
    ready.insert(ready.end(), resting.begin(), resting.end());
    return ready;
  }

  void MarkUp(size_t i) {
    std::lock_guard lock(mu_);
    if (health_[i].failures > 0) spdlog::info("replica {} answers again", replicas_[i]->ModelId());
    health_[i] = Health{};
  }

  void MarkDown(size_t i, const Status& why) {
    std::lock_guard lock(mu_);
    Health& h = health_[i];
    const double now = clock_->NowSeconds();
    // Requests that were in flight together fail together: one outage, one
    // failure, however many of them there were.
    if (h.resting_until > now) return;
    ++h.failures;
    double rest = options_.cooldown_initial_s;
    for (int k = 1; k < h.failures && rest < options_.cooldown_max_s; ++k) rest *= 2;
    rest = std::min(rest, options_.cooldown_max_s);
    h.resting_until = now + rest;
    spdlog::warn("replica {} failed ({}); trying the others, and it again in {:.0f} s", replicas_[i]->ModelId(),
                 why.message(), rest);
  }

  std::vector<std::unique_ptr<LlmBackend>> replicas_;
  ReplicaOptions options_;
  const Clock* clock_;
  std::mutex mu_;
  std::vector<Health> health_;
  size_t next_ = 0;
  std::string model_id_;
};

}  // namespace

Result<std::unique_ptr<LlmBackend>> NewReplicaBackend(std::vector<std::unique_ptr<LlmBackend>> replicas,
                                                      const ReplicaOptions& options, const Clock* clock) {
  if (replicas.empty()) return Status::InvalidArgument("no replicas");
  for (const auto& r : replicas) {
    if (!r) return Status::InvalidArgument("a replica is null");
  }
  return std::unique_ptr<LlmBackend>(new ReplicaBackend(std::move(replicas), options, clock));
}

}  // namespace regrapht
