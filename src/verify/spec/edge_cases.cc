#include "verify/spec/edge_cases.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

#include "core/strings.h"

namespace regrapht::verify {
namespace {

// Modes of rg::EdgeMode (driver/rg_driver.h).
constexpr int kMin = 1, kMax = 2, kInt = 3, kMagnitude = 4;

// The numeric bounds of an argument's values when the spec states them as
// numbers (size expressions: unknown here; the driver still applies min
// and max).
struct Range {
  std::optional<double> lo, hi;
};

bool Edgeable(const ArgSpec& a) {
  if (a.role == ArgRole::kSize || a.role == ArgRole::kOutput || !a.from.empty()) return false;
  if (a.role == ArgRole::kScalar || a.is_array() || a.pass == ArgPass::kReference) {
    switch (a.values.kind) {
      case Distribution::Kind::kUniform:
      case Distribution::Kind::kNormal:
      case Distribution::Kind::kSorted:
      case Distribution::Kind::kBernoulli:
      case Distribution::Kind::kString:
        return a.type.scalar.has_value() || a.values.kind == Distribution::Kind::kString;
      default:
        return false;
    }
  }
  return false;
}

Range RangeOf(const Distribution& d) {
  Range r;
  switch (d.kind) {
    case Distribution::Kind::kNormal:
      r.lo = d.mean - 4 * d.stddev;
      r.hi = d.mean + 4 * d.stddev;
      break;
    case Distribution::Kind::kBernoulli:
      r.lo = 0;
      r.hi = 1;
      break;
    case Distribution::Kind::kUniform:
    case Distribution::Kind::kSorted:
      if (auto v = ParseDouble(d.min)) r.lo = *v;
      if (auto v = ParseDouble(d.max)) r.hi = *v;
      break;
    default:
      break;
  }
  return r;
}

int64_t Bytes(const ProblemSpec& spec, const TestCase& t) {
  auto b = EstimateBytes(spec, t);
  return b.ok() ? *b : 0;
}

bool AllSizesAtLeast(const TestCase& t, int64_t n) {
  return std::all_of(t.sizes.begin(), t.sizes.end(), [&](const auto& kv) { return kv.second >= n; });
}

// The small test case one-argument edges run at: the smallest whose sizes
// are all at least 8 (so that an edge is not also a degenerate size), else
// the largest.
const TestCase* SmallBase(const ProblemSpec& spec) {
  const TestCase* best = nullptr;
  for (const auto& t : spec.tests) {
    if (AllSizesAtLeast(t, 8) && (!best || Bytes(spec, t) < Bytes(spec, *best))) best = &t;
  }
  if (best) return best;
  for (const auto& t : spec.tests) {
    if (!best || Bytes(spec, t) > Bytes(spec, *best)) best = &t;
  }
  return best;
}

const TestCase* LargestBase(const ProblemSpec& spec) {
  const TestCase* best = nullptr;
  for (const auto& t : spec.tests) {
    if (!best || Bytes(spec, t) > Bytes(spec, *best)) best = &t;
  }
  return best;
}

std::string Num(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

TestCase Make(const TestCase& base, int arg, int mode, double k, std::string note, uint64_t salt) {
  TestCase t;
  t.sizes = base.sizes;
  t.seed = base.seed * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e019ULL * (salt + 1);
  t.edge = std::to_string(arg) + " " + std::to_string(mode) + " " + Num(k);
  t.note = std::move(note);
  return t;
}

}  // namespace

std::vector<TestCase> EdgeCases(const ProblemSpec& spec, size_t max_cases) {
  std::vector<TestCase> out;
  const TestCase* small = SmallBase(spec);
  const TestCase* large = LargestBase(spec);
  if (!small || !large || max_cases == 0) return out;
  std::vector<size_t> args;
  for (size_t i = 0; i < spec.args.size(); ++i) {
    if (Edgeable(spec.args[i])) args.push_back(i);
  }
  if (args.empty()) return out;
  uint64_t salt = 0;
  out.push_back(Make(*large, -1, kMagnitude, 0, "every argument at the largest magnitude its range allows", salt++));
  std::vector<TestCase> inner;
  for (size_t i : args) {
    const ArgSpec& a = spec.args[i];
    const std::string what = a.values.kind == Distribution::Kind::kString
                                 ? a.name + ": strings of the "
                                 : (a.is_array() ? a.name + ": every element at its " : a.name + " at its ");
    const bool strings = a.values.kind == Distribution::Kind::kString;
    out.push_back(Make(*small, static_cast<int>(i), kMin, 0, what + (strings ? "shortest length" : "minimum"), salt++));
    out.push_back(Make(*small, static_cast<int>(i), kMax, 0, what + (strings ? "longest length" : "maximum"), salt++));
    Range r = RangeOf(a.values);
    if (strings || a.values.kind == Distribution::Kind::kBernoulli || !r.lo || !r.hi) continue;
    for (double k : {0.0, 1.0, -1.0, 2.0}) {
      if (k <= *r.lo || k >= *r.hi) continue;  // the bounds are tested above
      if (a.is_array() && k != 0.0) continue;   // arrays: all zeros only
      inner.push_back(Make(*small, static_cast<int>(i), kInt, k,
                           (a.is_array() ? a.name + ": every element " : a.name + " = ") + Num(k), salt++));
    }
  }
  out.insert(out.end(), inner.begin(), inner.end());
  if (out.size() > max_cases) out.resize(max_cases);
  return out;
}

}  // namespace regrapht::verify
