#include "search/stop.h"

#include <cstdio>

#include "search/search_run.h"

namespace regrapht::search {

std::optional<std::string> GenerationBudget::Check(const Spent& spent) const {
  if (spent.generations < max_) return std::nullopt;
  return "budget: " + std::to_string(max_) + (max_ == 1 ? " generation" : " generations");
}

std::optional<std::string> VerificationBudget::Check(const Spent& spent) const {
  if (spent.verifications < max_) return std::nullopt;
  return "budget: " + std::to_string(max_) + " verifications";
}

std::optional<std::string> WallClockBudget::Check(const Spent&) const {
  if (clock_->NowSeconds() - start_s_ < max_s_) return std::nullopt;
  char buf[64];
  std::snprintf(buf, sizeof buf, "budget: %.0f s wall clock", max_s_);
  return std::string(buf);
}

BudgetStoppers::BudgetStoppers(const Budget& budget, const Clock* clock, double start_s) {
  if (budget.max_generations > 0)
    stoppers_.push_back(std::make_unique<GenerationBudget>(budget.max_generations));
  if (budget.max_verifications > 0) {
    stoppers_.push_back(std::make_unique<VerificationBudget>(budget.max_verifications));
  }
  if (budget.max_wall_seconds > 0) {
    stoppers_.push_back(std::make_unique<WallClockBudget>(clock, start_s, budget.max_wall_seconds));
  }
}

std::optional<std::string> BudgetStoppers::Check(const Spent& spent) const {
  for (const auto& s : stoppers_) {
    if (auto why = s->Check(spent)) return why;
  }
  return std::nullopt;
}

Result<std::string> RunIterations(SearchRun& run, const IterationLoop& loop,
                                  const std::function<Status(int iteration)>& iterate) {
  std::string stop;
  int idle = 0;
  for (int iteration = 0;;) {
    if (run.Exhausted(&stop)) break;
    if (loop.max_iterations > 0 && iteration >= loop.max_iterations) {
      stop = "iterations: " + std::to_string(loop.max_iterations);
      break;
    }
    if (loop.space_exhausted && loop.space_exhausted()) {
      stop = loop.exhausted_reason;
      break;
    }
    int before = run.generations();
    RG_RETURN_IF_ERROR(iterate(++iteration));
    if (run.generations() != before) {
      idle = 0;
    } else if (++idle >= 64) {  // nothing left to generate below the selected states
      stop = loop.exhausted_reason;
      break;
    }
  }
  return stop;
}

}  // namespace regrapht::search
