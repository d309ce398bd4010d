#include "bench/calibrate.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "core/json_util.h"

namespace regrapht::bench {
namespace {

bool PowerOfTwo(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

// One line, the repository's spacing: {"sizes": {"n": 1}, "seed": 2}.
std::string CompactJson(const OrderedJson& j) {
  if (j.is_object()) {
    std::string s = "{";
    bool first = true;
    for (const auto& [k, v] : j.items()) {
      s += (first ? "" : ", ") + OrderedJson(k).dump() + ": " + CompactJson(v);
      first = false;
    }
    return s + "}";
  }
  if (j.is_array()) {
    std::string s = "[";
    for (size_t i = 0; i < j.size(); ++i) s += (i ? ", " : "") + CompactJson(j[i]);
    return s + "]";
  }
  return j.dump();
}

// The end (one past) of the JSON value starting at `pos`, or npos.
size_t ValueEnd(const std::string& t, size_t pos) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = pos; i < t.size(); ++i) {
    char c = t[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
      if (!in_string && depth == 0) return i + 1;
      continue;
    }
    if (c == '"') in_string = true;
    else if (c == '{' || c == '[') ++depth;
    else if (c == '}' || c == ']') {
      if (--depth == 0) return i + 1;
      if (depth < 0) return std::string::npos;
    } else if (depth == 0 && (c == ',' || c == '\n')) {
      return i;
    }
  }
  return std::string::npos;
}

// Where the value of the top-level key `key` starts, or npos.
size_t TopLevelValue(const std::string& t, const std::string& key) {
  int depth = 0;
  for (size_t i = 0; i < t.size(); ++i) {
    char c = t[i];
    if (c == '"') {
      size_t end = ValueEnd(t, i);
      if (end == std::string::npos) return std::string::npos;
      if (depth == 1 && t.compare(i + 1, key.size(), key) == 0 && end == i + key.size() + 2) {
        size_t colon = t.find_first_not_of(" \t\r\n", end);
        if (colon != std::string::npos && t[colon] == ':') return t.find_first_not_of(" \t\r\n", colon + 1);
      }
      i = end - 1;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
  return std::string::npos;
}

}  // namespace

std::string FormatSizes(const std::map<std::string, int64_t>& sizes) {
  std::string s;
  for (const auto& [k, v] : sizes) s += (s.empty() ? "" : " ") + fmt::format("{}={}", k, v);
  return s;
}

std::map<std::string, int64_t> ScaleSizes(const std::map<std::string, int64_t>& sizes, double factor,
                                          int64_t param_max) {
  std::map<std::string, int64_t> out;
  for (const auto& [name, v] : sizes) {
    if (v <= param_max) {
      out[name] = v;
      continue;
    }
    double want = static_cast<double>(v) * factor;
    int64_t n;
    if (PowerOfTwo(v)) {
      n = int64_t{1} << static_cast<int>(std::clamp(std::round(std::log2(std::max(want, 1.0))), 0.0, 62.0));
    } else {
      n = static_cast<int64_t>(std::clamp(std::round(want), 1.0, 9.2e18));
      if (v % 32 != 0 && n % 32 == 0) ++n;  // partial blocks stay partial
    }
    out[name] = std::max<int64_t>(n, param_max + 1);
  }
  return out;
}

Result<std::string> RewriteTimingSizes(const std::string& spec_text, const std::map<std::string, int64_t>& sizes,
                                       const std::string& file) {
  size_t start = TopLevelValue(spec_text, "timing");
  if (start == std::string::npos || spec_text[start] != '{') {
    return Status::InvalidArgument(file + ": timing: no top-level \"timing\" object to rewrite");
  }
  size_t end = ValueEnd(spec_text, start);
  if (end == std::string::npos) return Status::InvalidArgument(file + ": timing: unterminated object");
  OrderedJson timing;
  try {
    timing = OrderedJson::parse(spec_text.substr(start, end - start));
  } catch (const std::exception& e) {
    return Status::InvalidArgument(file + ": timing: " + e.what());
  }
  if (!timing.contains("sizes") || !timing["sizes"].is_object()) {
    return Status::InvalidArgument(file + ": timing.sizes: missing or not an object");
  }
  OrderedJson& old_sizes = timing["sizes"];
  OrderedJson new_sizes = OrderedJson::object();
  for (const auto& [k, v] : old_sizes.items()) {  // the file's order first
    auto it = sizes.find(k);
    new_sizes[k] = it == sizes.end() ? v : OrderedJson(it->second);
  }
  for (const auto& [k, v] : sizes) {
    if (!new_sizes.contains(k)) new_sizes[k] = v;
  }
  old_sizes = new_sizes;
  return spec_text.substr(0, start) + CompactJson(timing) + spec_text.substr(end);
}

Result<Calibration> CalibrateProblem(const Problem& problem, const CalibrateOptions& o) {
  if (!o.time_reference) return Status::InvalidArgument("calibrate: no reference timer");
  if (!(o.target_ms > 0)) return Status::InvalidArgument("calibrate: the target must be above 0 ms");
  const std::string file = (problem.dir / "problem.json").string();
  Calibration c;
  c.problem = problem.spec.name;
  c.old_sizes = c.new_sizes = problem.spec.timing.sizes;
  // The problem with its timing sizes scaled by `f`, or why it cannot be.
  auto scaled = [&](double f, std::string* why) -> std::optional<Problem> {
    Problem p = problem;
    auto text = RewriteTimingSizes(problem.spec_text, ScaleSizes(c.old_sizes, f, o.param_max), file);
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
  };
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
  double f = 1, t = std::max(c.old_ms, 1e-3), e = 1;
  {
    std::string why;
    auto b1 = EstimateBytes(problem.spec, problem.spec.timing);
    auto p2 = scaled(4, &why);
    auto b2 = p2 ? EstimateBytes(p2->spec, p2->spec.timing) : Result<int64_t>(Status::Internal(why));
    if (b1.ok() && b2.ok() && *b1 > 0 && *b2 > *b1) {
      e = std::clamp(std::log(static_cast<double>(*b2) / *b1) / std::log(4.0), 1.0, 4.0);
    }
  }
  const double aim = std::sqrt(o.target_ms * hi);     // the middle of the range, geometrically
  for (int step = 0; step < o.max_steps; ++step) {
    double g = f * std::pow(aim / t, 1 / e);
    std::string why;
    std::optional<Problem> p = scaled(g, &why);
    if (!p && g > f) {
      // Too large for the spec (a type, a range, 6 GiB): the largest factor
      // between f and g that it takes.
      double lo = f, up = g;
      for (int i = 0; i < 24 && up / lo > 1.01; ++i) {
        double mid = std::sqrt(lo * up);
        std::string w;
        (scaled(mid, &w) ? lo : up) = mid;
      }
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

}  // namespace regrapht::bench
