#include "verify/spec/timing_sizes.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "core/json_util.h"

namespace regrapht::verify {
namespace {

bool PowerOfTwo(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

// One line, the repository's spacing: {"sizes": {"n": 1}, "seed": 2}.
std::string CompactJson(const OrderedJson& j) {
  if (j.is_object()) {
    std::string s = "{";
    bool first = true;
    for (const auto& [k, v] : j.items()) {
      s += (first ? "" : ", ") + JsonLine(OrderedJson(k)) + ": " + CompactJson(v);
      first = false;
    }
    return s + "}";
  }
  if (j.is_array()) {
    std::string s = "[";
    for (size_t i = 0; i < j.size(); ++i) s += (i ? ", " : "") + CompactJson(j[i]);
    return s + "]";
  }
  return JsonLine(j);
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

// `p` with its timing sizes scaled by `factor` (ScaleSizes), when the result
// parses (types, size expressions, ranges); its bytes in *bytes.
std::optional<Problem> ScaledProblem(const Problem& p, double factor, int64_t param_max, int64_t* bytes) {
  const std::string file = (p.dir / "problem.json").string();
  auto text = RewriteTimingSizes(p.spec_text, ScaleSizes(p.spec.timing.sizes, factor, param_max), file);
  if (!text.ok()) return std::nullopt;
  auto spec = ParseProblemSpec(*text, file);
  if (!spec.ok()) return std::nullopt;
  auto b = EstimateBytes(*spec, spec->timing);
  if (!b.ok()) return std::nullopt;
  *bytes = *b;
  Problem q = p;
  q.spec = std::move(*spec);
  q.spec_text = std::move(*text);
  return q;
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

Result<FittedTiming> FitTimingInput(const Problem& p, int64_t max_bytes, int64_t param_max) {
  FittedTiming out{p, false, "", {}};
  if (max_bytes <= 0) return out;
  RG_ASSIGN_OR_RETURN(int64_t bytes, EstimateBytes(p.spec, p.spec.timing));
  if (bytes <= max_bytes) return out;
  const auto& sizes = p.spec.timing.sizes;
  // The problem at factor f when it fits and parses.
  auto at = [&](double f) -> std::optional<Problem> {
    int64_t b = 0;
    auto q = ScaledProblem(p, f, param_max, &b);
    if (!q || b > max_bytes) return std::nullopt;
    return q;
  };
  // Bytes shrink with the factor: bisect on log f for the largest that fits.
  double lo = 0x1p-40, hi = 1;
  std::optional<Problem> best = at(lo);
  if (!best) return out;
  for (int i = 0; i < 48 && hi / lo > 1.0001; ++i) {
    double mid = std::sqrt(lo * hi);
    if (auto q = at(mid)) {
      lo = mid;
      best = std::move(q);
    } else {
      hi = mid;
    }
  }
  if (best->spec.timing.sizes == sizes) return out;
  out.note = FormatSizes(best->spec.timing.sizes) + " of " + FormatSizes(sizes);
  out.problem = std::move(*best);
  out.scaled = true;
  return out;
}

Result<std::vector<TimingRung>> TimingRungs(const Problem& original, const FittedTiming& fit, int max_rungs,
                                            int64_t param_max) {
  const ProblemSpec& spec = fit.problem.spec;
  std::vector<TimingRung> down{{spec.timing, fit.note}};
  int64_t tests = 0;
  for (const TestCase& t : spec.tests) {
    auto b = EstimateBytes(spec, t);
    if (b.ok()) tests = std::max(tests, *b);
  }
  for (double f = 0.5; static_cast<int>(down.size()) < max_rungs; f /= 2) {
    int64_t bytes = 0;
    auto q = ScaledProblem(fit.problem, f, param_max, &bytes);
    if (!q || bytes <= tests) break;
    const TestCase& t = q->spec.timing;
    if (t.sizes == down.back().test.sizes) break;  // sizes that cannot shrink further
    down.push_back({t, FormatSizes(t.sizes) + " of " + FormatSizes(original.spec.timing.sizes)});
  }
  return std::vector<TimingRung>(down.rbegin(), down.rend());
}

}  // namespace regrapht::verify
