// Time as a seam: the search's wall-clock budgets and progress displays read
// a Clock so tests can drive time by hand.
//
//   FakeClock clock;            // starts at 1000 s
//   context.clock = &clock;     // SearchContext, OptimizeRequest
//   clock.Advance(30);          // e.g. from a fake harness: each verification "takes" 30 s
//
// Thread safety: both are safe from any thread (a FakeClock may be read by a
// watchdog while the search's thread advances it).
#pragma once

#include <atomic>
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
  double NowSeconds() const override { return now_.load(); }
  void Advance(double seconds) { now_.fetch_add(seconds); }

 private:
  std::atomic<double> now_{1000.0};
};

}  // namespace regrapht
