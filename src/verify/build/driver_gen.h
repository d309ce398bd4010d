// Generates the per-problem part of the test driver (see driver/rg_driver.h)
// and the plan file that tells a driver process what to run.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "regrapht/problem.h"

namespace regrapht::verify {

// C++ source of the driver for `spec`: declares the function under test and
// the argument builders, and calls rg::Main. Includes "rg_driver.h". With
// `kernel_form` (REQUIRES spec.kernel) the driver calls the kernel form's
// generated adapter (verify/kernel_form.h) instead of the function.
Result<std::string> GenerateDriver(const ProblemSpec& spec, bool kernel_form = false);

// The spec's structs as C++. `kernel_world`: string fields become
// `const char*` (device strings), as the kernel form's kernels see them;
// otherwise `std::string`, with an operator== for structs holding strings.
std::string StructsCpp(const ProblemSpec& spec, bool kernel_world);

// The storage of an array argument in the driver's slots: std::vector of the
// element (`struct_prefix` before a struct's name), std::vector<uint8_t> for
// bool pointers.
std::string SlotStorageType(const ProblemSpec& spec, const ArgSpec& arg, std::string_view struct_prefix);

// Every size variable of a test case, in the order the driver hands them to
// the kernel form's adapter: extra sizes, then size arguments.
std::vector<std::string> SizeVarNames(const ProblemSpec& spec);

// `text` as a C++ string literal.
std::string CppStringLiteral(std::string_view text);

// The text of rg_driver.h, embedded in the binary.
std::string_view DriverRuntimeHeader();

// The translation unit of the driver runtime: rg_driver.h's non-template
// definitions (the record writer, plan reader, driver loop, CUDA hooks),
// compiled once per set of driver flags and linked with every generated
// driver. Includes "rg_driver.h".
std::string_view DriverRuntimeSource();

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
  // With timing_size_case, the emulator's rungs (verify/timing_sizes.h): the
  // timing-size input at several sizes, ascending, as cases
  // spec.tests.size() + i, with each case's bytes ("weight" lines). A driver
  // linked with the emulator runs the smallest, then larger ones while their
  // predicted work fits `emulate_max_work` in all (0: every one); any other
  // driver (the reference's) runs them all. Empty: the spec's timing input,
  // one case.
  std::vector<TestCase> timing_size_rungs;
  int64_t emulate_max_work = 0;
  // The drop-in form on a GPU: measure each timed call's kernel time with
  // CUPTI ("kernel_clock 1"; the driver must be built with RG_DRIVER_CUPTI,
  // else it records no kernel time).
  bool kernel_clock = false;
  // Of the test cases, only call `test_run` (0 <= test_run < runs) of each;
  // the timing-size rungs still run every call. -1: every call. An emulated
  // candidate's test cases are split this way over `runs` processes that run
  // at once (SplitPlans).
  int test_run = -1;
};

// Plan text for the driver. Timing uses the spec's timing case with seeds
// `timing.seed` (set A) and a derived seed (set B).
std::string MakePlan(const ProblemSpec& spec, const PlanOptions& options);

// The plans of one emulated candidate run split over `options.runs`
// processes that together make exactly the calls of MakePlan(spec, options),
// with the same call numbers: plan k makes call k of every test case, and
// plan 0 also runs the timing-size rungs (every call). The split depends on
// the plan alone, never on the machine, so the same rungs run everywhere.
// One plan (MakePlan's) when options time, run once, or set test_run already.
std::vector<std::string> SplitPlans(const ProblemSpec& spec, const PlanOptions& options);

// The derived second timing seed.
uint64_t TimingSeedB(const ProblemSpec& spec);

}  // namespace regrapht::verify
