// Benchmark suites (docs/bench.md): a suite folder holds suite.json and its
// problem folders. What a program needs besides running one (bench.h): what
// a suite holds, and timing sizes that mean something on this machine
// (`regrapht suite calibrate`).
//
//   RG_ASSIGN_OR_RETURN(SuiteContents s, ReadSuite("bench/suites/pareval-lite"));
//   for (const auto& p : s.problems) CheckProblems({p.dir}, ...);
//
//   TimingCalibratorOptions o;
//   o.verify = verify_options;
//   RG_ASSIGN_OR_RETURN(auto cal, TimingCalibrator::Open("problems", o));
//   while (true) {
//     RG_ASSIGN_OR_RETURN(std::optional<TimingCalibration> c, cal->Next());
//     if (!c) break;
//     if (c->changed) RG_RETURN_IF_ERROR(cal->WriteLast());
//   }
//
// Thread safety: a TimingCalibrator is used from one thread; ReadSuite from
// any.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "regrapht/status.h"
#include "regrapht/verify.h"

namespace regrapht {

struct SuiteContents {
  std::string name;
  struct Entry {
    std::string name;  // the problem's name (its spec's)
    std::string dir;   // its folder
    std::string tier;  // easy | medium | hard, the category in grouped suites, or "" (untiered)
  };
  std::vector<Entry> problems;  // sorted by name
};

// Loads and validates the suite at `dir` (suite.json, every problem
// folder's spec). Errors name the file and field.
Result<SuiteContents> ReadSuite(const std::string& dir);

// `suite calibrate`: for each problem, the timing sizes at which the
// sequential -O3 reference takes at least `target_ms` on this CPU.
struct TimingCalibratorOptions {
  double target_ms = 100;  // the reference's median at the timing size must reach this
  int max_steps = 8;       // reference runs per problem after the first
  int64_t param_max =
      64;  // timing sizes at most this are parameters (radius, iterations, k) and never scale
  // Largest argument bytes of one copy of the timing input (the driver
  // holds five copies); 0: only the spec's 6 GiB limit.
  int64_t max_bytes = int64_t{1} << 30;
  std::vector<std::string> only;  // these problems only (names); empty: every one
  // How the reference is built and timed (archs, flags, sandbox, cache):
  // timed on the GPU path (run_mode kGpu, timing on), with one warm-up and
  // two repetitions, enough to place a size within a factor of three.
  VerifyOptions verify;
};

// One problem's calibration.
struct TimingCalibration {
  std::string problem;
  std::string old_sizes;  // "n=1000, m=20": the spec's timing sizes
  std::string new_sizes;  // the proposal (the old ones when !changed)
  double old_ms = 0, new_ms = 0;
  bool changed = false;
  // Why the sizes are what they are: "at target", "scaled x4.2",
  // "limited: <the parser's reason>", "target not reached in N steps",
  // "no size to scale".
  std::string note;
  // Non-empty: the problem could not be calibrated (the reference does not
  // run: the harness's message); only `problem` and `old_sizes` are set.
  std::string error;
};

class TimingCalibrator {
 public:
  // Reads the problems of `dir`: a suite's (suite.json), else every
  // subfolder holding a problem.json. Errors: `dir` is not a folder or holds
  // neither; a spec that does not load (file and field); a name of
  // options.only that is no problem there; options.verify not timing on
  // the GPU path (--emulate, --cpu-candidate, --no-timing do not apply).
  static Result<std::unique_ptr<TimingCalibrator>> Open(const std::string& dir,
                                                        const TimingCalibratorOptions& options);
  ~TimingCalibrator();
  TimingCalibrator(const TimingCalibrator&) = delete;
  TimingCalibrator& operator=(const TimingCalibrator&) = delete;

  // The CPU the reference is timed on (its model name).
  const std::string& cpu() const;
  // How many problems there are to calibrate (the names of options.only, or
  // every problem of the folder).
  int problems() const;
  // Calibrates the next problem (in name order; those of options.only);
  // nullopt after the last. A problem that cannot be calibrated is data
  // (TimingCalibration::error), not a Status.
  Result<std::optional<TimingCalibration>> Next();
  // Writes the calibration Next returned last into its problem.json as the
  // file is now: the rewritten text must parse as a spec before it replaces
  // the file, atomically. A file that cannot be read, rewritten or parsed is
  // left as it was; the Status names it. REQUIRES: Next returned one
  // without error.
  Status WriteLast();

 private:
  struct Impl;
  explicit TimingCalibrator(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace regrapht
