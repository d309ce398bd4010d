// When a search stops (docs/search.md, "Budgets"): each limit is a Stopper
// object checked between generations, shared by every method through
// SearchRun::Exhausted; the iteration loop of the tree searches
// (RunIterations) adds the iteration limit and "search space exhausted".
//
// The wall-clock budget reads the Clock seam, so tests drive it with a
// FakeClock (stop_test.cc).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "regrapht/search.h"

namespace regrapht::search {

class SearchRun;

// What a search has spent so far.
struct Spent {
  int generations = 0;
  int verifications = 0;
};

class Stopper {
 public:
  virtual ~Stopper() = default;
  // Why the search must stop now ("budget: 200 generations"); nullopt: it may go on.
  virtual std::optional<std::string> Check(const Spent& spent) const = 0;
};

// Stops once `max` generations were made. REQUIRES: max > 0.
class GenerationBudget final : public Stopper {
 public:
  explicit GenerationBudget(int max) : max_(max) {}
  std::optional<std::string> Check(const Spent& spent) const override;

 private:
  int max_;
};

// Stops once `max` verifications were run (reused results do not count). REQUIRES: max > 0.
class VerificationBudget final : public Stopper {
 public:
  explicit VerificationBudget(int max) : max_(max) {}
  std::optional<std::string> Check(const Spent& spent) const override;

 private:
  int max_;
};

// Stops once `max_seconds` have passed on `clock` since `start_s` (a
// reading of the same clock). `clock` must outlive it. REQUIRES: max_seconds > 0.
class WallClockBudget final : public Stopper {
 public:
  WallClockBudget(const Clock* clock, double start_s, double max_seconds)
      : clock_(clock), start_s_(start_s), max_s_(max_seconds) {}
  std::optional<std::string> Check(const Spent& spent) const override;

 private:
  const Clock* clock_;
  double start_s_, max_s_;
};

// The stoppers of a Budget (a limit of 0 has none), checked in the order
// generations, verifications, wall clock: the first that fires says why.
class BudgetStoppers {
 public:
  BudgetStoppers(const Budget& budget, const Clock* clock, double start_s);
  std::optional<std::string> Check(const Spent& spent) const;

 private:
  std::vector<std::unique_ptr<Stopper>> stoppers_;
};

// The loop of the tree searches (MCGS, action-MCTS).
struct IterationLoop {
  int max_iterations = 0;                 // 0: no limit
  std::function<bool()> space_exhausted;  // may be empty
  std::string exhausted_reason = "search space exhausted";
};

// Calls `iterate(1)`, `iterate(2)`, ... until `run` is exhausted (its
// stoppers, a cancellation, the endpoint or the harness), `max_iterations`
// iterations ran, `space_exhausted()` holds, or 64 iterations in a row
// generated nothing (both "exhausted_reason"). Returns why it stopped, or
// the first error of `iterate`.
Result<std::string> RunIterations(SearchRun& run, const IterationLoop& loop,
                                  const std::function<Status(int iteration)>& iterate);

}  // namespace regrapht::search
