#include "bench/calibrate.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "core/fs.h"
#include "core/json_util.h"
#include "core/log.h"

namespace regrapht::bench {

namespace {

// `problem` with its timing sizes (`old_sizes`) scaled by `f`, or why it
// cannot be (the spec parser's reason, or over o.max_bytes).
std::optional<Problem> ScaledProblem(const Problem& problem, const CalibrateOptions& o,
                                     const std::map<std::string, int64_t>& old_sizes, double f, std::string* why) {
  const std::string file = (problem.dir / "problem.json").string();
  Problem p = problem;
  auto text = RewriteTimingSizes(problem.spec_text, ScaleSizes(old_sizes, f, o.param_max), file);
  if (!text.ok()) {
    *why = text.status().message();
    return std::nullopt;
  }
  auto spec = ParseProblemSpec(*text, file);
  if (!spec.ok()) {
    *why = spec.status().message();
    return std::nullopt;
  }
  auto bytes = EstimateBytes(*spec, spec->timing);
  if (o.max_bytes > 0 && bytes.ok() && *bytes > o.max_bytes) {
    *why = fmt::format("{} MiB per copy of the timing input is over the {} MiB limit (--max-mib)", *bytes >> 20,
                       o.max_bytes >> 20);
    return std::nullopt;
  }
  p.spec_text = std::move(*text);
  p.spec = std::move(*spec);
  return p;
}

using ScaleFn = std::function<std::optional<Problem>(double, std::string*)>;

// The first guess of the exponent e in t ~ f^e: how the argument bytes grow
// with f (n x n grids: 2), in [1, 4]; 1 when that cannot be told.
double FirstGrowthExponent(const Problem& problem, const ScaleFn& scaled) {
  std::string why;
  auto b1 = EstimateBytes(problem.spec, problem.spec.timing);
  auto p2 = scaled(4, &why);
  auto b2 = p2 ? EstimateBytes(p2->spec, p2->spec.timing) : Result<int64_t>(Status::Internal(why));
  if (b1.ok() && b2.ok() && *b1 > 0 && *b2 > *b1) {
    return std::clamp(std::log(static_cast<double>(*b2) / *b1) / std::log(4.0), 1.0, 4.0);
  }
  return 1;
}

// The largest factor between `lo` (taken) and `up` (too large for the spec:
// a type, a range, 6 GiB) that the spec takes, within 1%.
double LargestScale(double lo, double up, const ScaleFn& scaled) {
  for (int i = 0; i < 24 && up / lo > 1.01; ++i) {
    double mid = std::sqrt(lo * up);
    std::string w;
    (scaled(mid, &w) ? lo : up) = mid;
  }
  return lo;
}

}  // namespace

Result<Calibration> CalibrateProblem(const Problem& problem, const CalibrateOptions& o) {
  if (!o.time_reference) return Status::InvalidArgument("calibrate: no reference timer");
  if (!(o.target_ms > 0)) return Status::InvalidArgument("calibrate: the target must be above 0 ms");
  Calibration c;
  c.problem = problem.spec.name;
  c.old_sizes = c.new_sizes = problem.spec.timing.sizes;
  auto scaled = [&](double f, std::string* why) { return ScaledProblem(problem, o, c.old_sizes, f, why); };
  RG_ASSIGN_OR_RETURN(c.old_ms, o.time_reference(problem));
  c.new_ms = c.old_ms;
  const double hi = o.accept_factor * o.target_ms;
  auto accepted = [&](double ms) { return ms >= o.target_ms && ms <= hi; };
  // Sizes only grow: a reference already at or above the target stays (on a
  // busy machine the wall-clock times are inflated, and shrinking on them
  // would undo a calibration made on a quiet one).
  if (c.old_ms >= o.target_ms) {
    c.note = "at target";
    return c;
  }
  if (ScaleSizes(c.old_sizes, 2, o.param_max) == c.old_sizes) {
    c.note = "no size to scale (every timing size is at most " + std::to_string(o.param_max) + ")";
    return c;
  }
  // t ~ f^e, e fitted from the measurements; the first guess is how the
  // argument bytes grow with f (n x n grids: 2), never below 1.
  double f = 1, t = std::max(c.old_ms, 1e-3), e = FirstGrowthExponent(problem, scaled);
  constexpr double kMaxStepGrowth = 32;
  const double aim = std::sqrt(o.target_ms * hi);     // the middle of the range, geometrically
  for (int step = 0; step < o.max_steps; ++step) {
    // At most x kMaxStepGrowth per step: a reference timed at a microsecond
    // says little about its growth, and a guess that assumed linear work
    // for a quadratic one ran for minutes (n = 101 -> 353,500 for a pair
    // count); the exponent is re-fitted after every step.
    double g = f * std::min(std::pow(aim / t, 1 / e), kMaxStepGrowth);
    std::string why;
    std::optional<Problem> p = scaled(g, &why);
    if (!p && g > f) {
      // Too large for the spec (a type, a range, 6 GiB): the largest factor
      // between f and g that it takes.
      const double lo = LargestScale(f, g, scaled);
      if (lo <= f * 1.01) {
        c.note = "limited: " + why;
        break;
      }
      g = lo;
      p = scaled(g, &why);
      c.note = "limited: " + why;
    }
    if (!p) {
      c.note = "limited: " + why;
      break;
    }
    if (p->spec.timing.sizes == c.new_sizes) break;  // rounding: nothing left to change
    RG_ASSIGN_OR_RETURN(double ms, o.time_reference(*p));
    ms = std::max(ms, 1e-3);
    if (std::abs(std::log(g / f)) > 1e-6) e = std::clamp(std::log(ms / t) / std::log(g / f), 0.5, 4.0);
    spdlog::info("calibrate {}: x{:.4g} -> {:.4g} ms (growth exponent {:.2f})", problem.spec.name, g, ms, e);
    f = g;
    t = ms;
    c.new_sizes = p->spec.timing.sizes;
    c.new_ms = ms;
    if (accepted(ms)) {
      c.note = fmt::format("scaled x{:.3g}", f);
      break;
    }
    if (c.note.rfind("limited", 0) == 0) break;
    if (step + 1 == o.max_steps) c.note = fmt::format("target not reached in {} steps", o.max_steps);
  }
  c.changed = c.new_sizes != c.old_sizes;
  if (c.note.empty()) c.note = c.changed ? fmt::format("scaled x{:.3g}", f) : "unchanged";
  return c;
}

Status WriteCalibration(const Problem& problem, const Calibration& calibration) {
  const fs::path file = problem.dir / "problem.json";
  RG_ASSIGN_OR_RETURN(std::string current, ReadFile(file));
  RG_ASSIGN_OR_RETURN(std::string text, RewriteTimingSizes(current, calibration.new_sizes, file.string()));
  RG_RETURN_IF_ERROR(ParseProblemSpec(text, file.string()).status());
  return WriteFileAtomic(file, text);
}

}  // namespace regrapht::bench
