// Time as a seam: the search's wall-clock budgets and progress displays read
// a Clock so tests can drive time by hand.
//
//   FakeClock clock;            // starts at 1000 s
//   context.clock = &clock;     // SearchContext, OptimizeRequest
//   clock.Advance(30);          // e.g. from a fake harness: each verification "takes" 30 s
//
// Thread safety: SystemClock is safe from any thread; FakeClock is not
// synchronised (advance it from the thread that runs the search).
#pragma once

#include <chrono>

namespace regrapht {

class Clock {
 public:
  virtual ~Clock() = default;
  // Seconds since an arbitrary fixed origin; monotonic.
  virtual double NowSeconds() const = 0;
};

class SystemClock final : public Clock {
 public:
  double NowSeconds() const override {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
  static SystemClock* Get() {
    static SystemClock clock;
    return &clock;
  }
};

// Time stands still until Advance().
class FakeClock final : public Clock {
 public:
  double NowSeconds() const override { return now_; }
  void Advance(double seconds) { now_ += seconds; }

 private:
  double now_ = 1000.0;
};

}  // namespace regrapht
