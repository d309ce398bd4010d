// Generates the per-problem part of the test driver (see driver/rg_driver.h)
// and the plan file that tells a driver process what to run.
#pragma once

#include <string>

#include "regrapht/problem.h"

namespace regrapht::verify {

// C++ source of the driver for `spec`: declares the function under test and
// the argument builders, and calls rg::Main. Includes "rg_driver.h".
Result<std::string> GenerateDriver(const ProblemSpec& spec);

// The text of rg_driver.h, embedded in the binary.
std::string_view DriverRuntimeHeader();

struct PlanOptions {
  int runs = 2;             // calls per test case on fresh copies
  bool timing = true;
  int warmup = 2;
  int min_reps = 5;
  int max_reps = 50;
  double max_seconds = 2.0; // stop timing once this much time was measured (and min_reps done)
  bool flush_l2 = true;
  // Also run the spec's timing-size input (seed `timing.seed`) as one more
  // test case, index spec.tests.size(), for correctness only: the CPU
  // emulator's substitute for the timing run's output check.
  bool timing_size_case = false;
};

// Plan text for the driver. Timing uses the spec's timing case with seeds
// `timing.seed` (set A) and a derived seed (set B).
std::string MakePlan(const ProblemSpec& spec, const PlanOptions& options);

// The derived second timing seed.
uint64_t TimingSeedB(const ProblemSpec& spec);

}  // namespace regrapht::verify
