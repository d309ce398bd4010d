// Test doubles for searches: a model that "applies" the requested technique
// by appending it to a path written in the code, and an evaluator that scores
// code by that path from a script. Deterministic, no GPU, no model.
//
// Code the fake model writes:
//   // path: thread_mapping>shared_memory_tiling
//   __global__ void k() {}  void <function>(...) { k<<<1, 1>>>(); }
#pragma once

#include <functional>
#include <map>
#include <mutex>
#include <string>

#include "regrapht/search.h"

namespace regrapht::search {

// The "path:" line of code written by PathModel; "" if absent.
std::string PathOf(const std::string& code);

// An LlmBackend that answers step prompts by appending the requested
// technique id to the current code's path; standard/cot/rag prompts start a
// path with "standard"; thought prompts get numbered ideas.
class PathModel final : public LlmBackend {
 public:
  // `name_to_id`: technique display names (as in prompts) -> ids.
  explicit PathModel(std::map<std::string, std::string> name_to_id) : names_(std::move(name_to_id)) {}
  Result<ChatResponse> Chat(const ChatRequest& request) override;
  std::string Name() const override { return "path-model"; }
  std::string ModelId() const override { return "path-model"; }
  int calls() const { return calls_; }

 private:
  std::map<std::string, std::string> names_;
  int calls_ = 0;
  std::mutex mu_;
};

// Scores code by its path: `score(path)` returns the speedup of a correct
// candidate, or a value <= 0 for a wrong one.
class PathEvaluator final : public CandidateEvaluator {
 public:
  explicit PathEvaluator(std::function<double(const std::string& path)> score) : score_(std::move(score)) {}
  Result<VerifyResult> Evaluate(const Problem& problem, const std::string& code) override;
  int evaluations() const { return evaluations_; }

 private:
  std::function<double(const std::string&)> score_;
  int evaluations_ = 0;
};

}  // namespace regrapht::search
