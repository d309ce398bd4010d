// FakeLlmBackend: scripted replies for tests of the modules above llm
// (search, bench), and a record of every request it was sent.
//
//   FakeLlmBackend llm;
//   llm.AddReply("```cuda\n__global__ void k() {}\n```");
//   llm.FailNext(Status::Unavailable("down"));  // the next Chat() fails once
//
// Replies are handed out in order, one per sample; when the script runs out
// the default reply is repeated. Thread-safe.
#pragma once

#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "regrapht/llm.h"

namespace regrapht {

class FakeLlmBackend : public LlmBackend {
 public:
  FakeLlmBackend() = default;
  explicit FakeLlmBackend(std::vector<std::string> replies) {
    for (auto& r : replies) script_.push_back(std::move(r));
  }

  void AddReply(std::string reply) {
    std::lock_guard lock(mu_);
    script_.push_back(std::move(reply));
  }
  void set_default_reply(std::string reply) {
    std::lock_guard lock(mu_);
    default_reply_ = std::move(reply);
  }
  // Computes replies from the request instead of the script (sample index given).
  void set_responder(std::function<std::string(const ChatRequest&, int)> f) {
    std::lock_guard lock(mu_);
    responder_ = std::move(f);
  }
  void FailNext(Status status) {
    std::lock_guard lock(mu_);
    fail_next_ = std::move(status);
  }
  void set_model_id(std::string id) { model_id_ = std::move(id); }

  std::vector<ChatRequest> requests() const {
    std::lock_guard lock(mu_);
    return requests_;
  }
  int calls() const {
    std::lock_guard lock(mu_);
    return static_cast<int>(requests_.size());
  }

  Result<ChatResponse> Chat(const ChatRequest& request) override {
    std::lock_guard lock(mu_);
    requests_.push_back(request);
    if (fail_next_) {
      Status s = std::move(*fail_next_);
      fail_next_.reset();
      return s;
    }
    if (request.messages.empty()) return Status::InvalidArgument("no messages");
    ChatResponse response;
    response.model = model_id_;
    for (const auto& m : request.messages) response.tokens_prompt += CountTokens(m.content);
    response.tokens_prompt_evaluated = response.tokens_prompt;
    for (int i = 0; i < request.n; ++i) {
      Completion c;
      if (request.cancel && request.cancel->load()) {
        c.finish_reason = FinishReason::kCancelled;
      } else if (responder_) {
        c.text = responder_(request, i);
      } else if (!script_.empty()) {
        c.text = std::move(script_.front());
        script_.pop_front();
      } else {
        c.text = default_reply_;
      }
      c.tokens_generated = CountTokens(c.text);
      response.tokens_generated += c.tokens_generated;
      response.choices.push_back(std::move(c));
    }
    return response;
  }

  std::string Name() const override { return "fake"; }
  std::string ModelId() const override { return model_id_; }

  // A crude token count: whitespace-separated words.
  static int CountTokens(const std::string& s) {
    int n = 0;
    bool in_word = false;
    for (char c : s) {
      bool space = c == ' ' || c == '\n' || c == '\t';
      if (!space && !in_word) ++n;
      in_word = !space;
    }
    return n;
  }

 private:
  mutable std::mutex mu_;
  std::deque<std::string> script_;
  std::string default_reply_ = "I have no reply scripted.";
  std::function<std::string(const ChatRequest&, int)> responder_;
  std::optional<Status> fail_next_;
  std::vector<ChatRequest> requests_;
  std::string model_id_ = "fake-model";
};

}  // namespace regrapht
