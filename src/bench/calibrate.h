// Timing sizes that mean something (docs/bench.md): `regrapht suite
// calibrate` proposes, for each problem, the timing sizes at which the
// sequential -O3 reference takes at least a target time on this CPU, and
// can write them into the specs.
//
//   CalibrateOptions o;
//   o.time_reference = [&](const Problem& p) { ... the harness's reference run ... };
//   Result<Calibration> c = CalibrateProblem(problem, o);
//   Result<std::string> text = RewriteTimingSizes(problem.spec_text, c->new_sizes, "problem.json");
//
// Scaling: ScaleSizes (verify/timing_sizes.h). Every candidate set of sizes
// is checked by the spec parser (types, size expressions, min <= max, the
// 6 GiB argument limit) before it is timed.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>

#include "regrapht/problem.h"
#include "regrapht/status.h"
#include "verify/spec/timing_sizes.h"

namespace regrapht::bench {

struct CalibrateOptions {
  double target_ms = 100;  // the reference's median at the timing size must reach this
  // Scaled sizes are accepted once the median lies in
  // [target, accept_factor * target].
  double accept_factor = 3;
  int max_steps = 8;       // reference runs per problem after the first
  int64_t param_max = 64;  // timing sizes at most this are parameters and never scale
  // Largest argument bytes of one copy of the timing input (EstimateBytes)
  // a proposal may have: the driver holds five copies (two input sets,
  // three working slots), so the spec's 6 GiB limit is more than most
  // machines can run. 0: only the spec's limit.
  int64_t max_bytes = int64_t{1} << 30;
  // Median ms of the reference at `problem.spec.timing` (the harness's
  // reference run: sandbox, cache). REQUIRED.
  std::function<Result<double>(const Problem&)> time_reference;
};

struct Calibration {
  std::string problem;
  std::map<std::string, int64_t> old_sizes, new_sizes;
  double old_ms = 0, new_ms = 0;
  bool changed = false;
  // Why the sizes are what they are: "at target", "scaled x4.2",
  // "limited: <the parser's reason>", "target not reached in N steps",
  // "no size to scale".
  std::string note;
};

// Shared with the emulator's full-size case (verify/timing_sizes.h).
using verify::FormatSizes;
using verify::RewriteTimingSizes;
using verify::ScaleSizes;

// Times the reference at the spec's timing sizes and, unless that already
// reaches the target, scales them up (above) until the median lies in
// [target, accept_factor * target], the next factor from the growth measured
// so far. Sizes never shrink. Errors: the reference does not
// run (the harness's message), or time_reference unset.
Result<Calibration> CalibrateProblem(const Problem& problem, const CalibrateOptions& options);

// Writes `calibration.new_sizes` into `problem`'s problem.json as the file is
// now (not as it was loaded): the rewritten text must parse as a spec
// (ParseProblemSpec) before it replaces the file, atomically. A file that
// cannot be read, rewritten or parsed is left as it was; the Status names it.
Status WriteCalibration(const Problem& problem, const Calibration& calibration);

}  // namespace regrapht::bench
