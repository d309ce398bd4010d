#include "core/html.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "core/strings.h"

namespace regrapht {
namespace {

constexpr const char* kCss = R"(
body{font-family:system-ui,-apple-system,"Segoe UI",Helvetica,Arial,sans-serif;margin:1.5em auto;max-width:1280px;
padding:0 1em;color:#1b1b1b;background:#fff;line-height:1.4}
h1{font-size:1.6em}h2{font-size:1.3em;border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:2em}
h3{font-size:1.1em;margin-top:1.5em}
table{border-collapse:collapse;margin:.5em 0 1em;font-size:.88em;display:block;max-width:100%;overflow-x:auto}
p,li,td,figcaption{overflow-wrap:break-word}svg{max-width:100%;height:auto}figure{overflow-x:auto}
th,td{border:1px solid #d0d0d0;padding:.25em .5em;text-align:left;vertical-align:top}
th{background:#f1f3f5}td.num{text-align:right;font-variant-numeric:tabular-nums}
tr:nth-child(even) td{background:#fafafa}
.ci{color:#666;font-size:.9em}.muted{color:#777}
.ev-gpu-timed{color:#0b6b2f}.ev-gpu-untimed{color:#8a5a00}.ev-emulated{color:#7a3fb0}.ev-compiled-only{color:#a61b1b}
.v-correct{color:#0b6b2f;font-weight:600}.v-fail{color:#a61b1b}.v-other{color:#8a5a00}
.warn{background:#fff4e5;border-left:4px solid #e67e22;padding:.4em .8em}
pre{background:#f6f8fa;padding:.6em;overflow-x:auto;font-size:.82em;max-height:40em}
pre.diff .add{background:#e6ffec;display:block}pre.diff .del{background:#ffebe9;display:block}
pre.diff .hunk{color:#0550ae;display:block}
details{margin:.15em 0}summary{cursor:pointer}
figure{margin:1em 0}figcaption{font-size:.85em;color:#555}
svg text{font-family:system-ui,Helvetica,Arial,sans-serif}
nav ul{columns:2}
)";

const char* kPalette[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
                          "#8c564b", "#e377c2", "#7f7f7f", "#17becf", "#bcbd22"};
const char* Color(size_t i) { return kPalette[i % std::size(kPalette)]; }

std::string Num(double v) { return fmt::format("{:.1f}", v); }

// Quantile by linear interpolation of sorted values.
double Quantile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0;
  double pos = q * (sorted.size() - 1);
  size_t lo = static_cast<size_t>(std::floor(pos));
  size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (pos - lo) * (sorted[hi] - sorted[lo]);
}

// A deterministic jitter in [-1, 1] for the i-th dot.
double Jitter(size_t i) {
  uint64_t x = (i + 1) * 0x9E3779B97F4A7C15ull;
  x ^= x >> 31;
  return static_cast<double>(x % 2001) / 1000.0 - 1.0;
}

// "1/4x", "1x", "2x", ... for a power of two.
std::string PowLabel(int e) {
  if (e >= 0) return fmt::format("{}x", 1LL << e);
  return fmt::format("1/{}x", 1LL << -e);
}

// A short tick label for a linear axis.
std::string Tick(double v) {
  if (std::fabs(v - std::round(v)) < 1e-9)
    return fmt::format("{}", static_cast<long long>(std::round(v)));
  return fmt::format("{:.2g}", v);
}

// A "nice" step for about `n` ticks over `span`.
double NiceStep(double span, int n) {
  if (span <= 0) return 1;
  double raw = span / n;
  double mag = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    if (raw <= m * mag) return m * mag;
  }
  return 10 * mag;
}

}  // namespace

std::string HtmlEscape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string HtmlPage(std::string_view title, std::string_view body) {
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  out += "<title>" + HtmlEscape(title) + "</title>\n<style>" + kCss + "</style>\n</head>\n<body>\n";
  out += body;
  out += "\n</body>\n</html>\n";
  return out;
}

std::string UnifiedDiff(std::string_view before, std::string_view after, int context) {
  if (before == after) return "";
  const std::vector<std::string> a = SplitLines(before), b = SplitLines(after);
  // ops: ' ' keep, '-' from a, '+' from b, in order.
  std::vector<std::pair<char, const std::string*>> ops;
  constexpr size_t kMaxLines = 4000;
  if (a.size() > kMaxLines || b.size() > kMaxLines) {
    for (const auto& l : a) ops.push_back({'-', &l});
    for (const auto& l : b) ops.push_back({'+', &l});
  } else {
    const size_t n = a.size(), m = b.size();
    // lcs[i][j]: LCS length of a[i..] and b[j..].
    std::vector<uint16_t> lcs((n + 1) * (m + 1), 0);
    auto at = [&](size_t i, size_t j) -> uint16_t& { return lcs[i * (m + 1) + j]; };
    for (size_t i = n; i-- > 0;) {
      for (size_t j = m; j-- > 0;) {
        at(i, j) = a[i] == b[j] ? at(i + 1, j + 1) + 1 : std::max(at(i + 1, j), at(i, j + 1));
      }
    }
    size_t i = 0, j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && a[i] == b[j]) {
        ops.push_back({' ', &a[i++]});
        ++j;
      } else if (i < n && (j == m || at(i + 1, j) >= at(i, j + 1))) {
        ops.push_back({'-', &a[i++]});  // removals before additions, as diff -u
      } else {
        ops.push_back({'+', &b[j++]});
      }
    }
  }
  // Hunks: changes with `context` kept lines around them.
  std::string out;
  size_t k = 0;
  while (k < ops.size()) {
    while (k < ops.size() && ops[k].first == ' ') ++k;
    if (k == ops.size()) break;
    size_t start = k >= static_cast<size_t>(context) ? k - context : 0;
    size_t end = k;  // one past the hunk's last op
    size_t quiet = 0;
    for (size_t t = k; t < ops.size(); ++t) {
      if (ops[t].first == ' ') {
        if (++quiet > static_cast<size_t>(2 * context)) break;
      } else {
        quiet = 0;
        end = t + 1;
      }
    }
    end = std::min(ops.size(), end + context);
    // Line numbers of the hunk's start.
    int a_line = 1, b_line = 1;
    for (size_t t = 0; t < start; ++t) {
      if (ops[t].first != '+') ++a_line;
      if (ops[t].first != '-') ++b_line;
    }
    int a_count = 0, b_count = 0;
    std::string body;
    for (size_t t = start; t < end; ++t) {
      if (ops[t].first != '+') ++a_count;
      if (ops[t].first != '-') ++b_count;
      body += ops[t].first;
      body += *ops[t].second + "\n";
    }
    out += fmt::format("@@ -{},{} +{},{} @@\n", a_count ? a_line : a_line - 1, a_count,
                       b_count ? b_line : b_line - 1, b_count) +
           body;
    k = end;
  }
  return out;
}

std::string DiffHtml(std::string_view unified_diff) {
  std::string out = "<pre class=\"diff\">";
  for (const auto& line : SplitLines(unified_diff)) {
    const char* cls = line.empty()             ? nullptr
                      : line[0] == '+'         ? "add"
                      : line[0] == '-'         ? "del"
                      : StartsWith(line, "@@") ? "hunk"
                                               : nullptr;
    if (cls) {
      out += fmt::format("<span class=\"{}\">{}</span>", cls, HtmlEscape(line));
    } else {
      out += HtmlEscape(line) + "\n";
    }
  }
  return out + "</pre>";
}

std::string SvgStripPlot(const std::vector<StripSeries>& series, std::string_view title,
                         std::string_view x_label) {
  constexpr double kLeft = 170, kRight = 30, kTop = 20, kRow = 46, kWidth = 760;
  const double height = kTop + kRow * std::max<size_t>(series.size(), 1) + 50;
  // The x range in log2, whole powers of two around the data and 1.
  double lo = 0, hi = 0;
  for (const auto& s : series) {
    for (double v : s.values) {
      if (v <= 0) continue;
      lo = std::min(lo, std::floor(std::log2(v)));
      hi = std::max(hi, std::ceil(std::log2(v)));
    }
  }
  if (hi - lo < 2) {
    lo -= 1;
    hi += 1;
  }
  const double plot_w = kWidth - kLeft - kRight;
  auto x_of = [&](double v) { return kLeft + (std::log2(v) - lo) / (hi - lo) * plot_w; };
  std::string s = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"strip\" width=\"{}\" height=\"{}\" "
      "viewBox=\"0 0 {} {}\" "
      "role=\"img\"><title>{}</title>\n",
      kWidth, height, kWidth, height, HtmlEscape(title));
  const double axis_y = kTop + kRow * std::max<size_t>(series.size(), 1);
  // Grid and ticks at powers of two (at most about 10 labels).
  const int step = std::max(1, static_cast<int>(std::ceil((hi - lo) / 10)));
  for (int e = static_cast<int>(lo); e <= static_cast<int>(hi); e += step) {
    double x = x_of(std::pow(2.0, e));
    s += fmt::format(
        "<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"{3}\" stroke-width=\"{4}\"/>",
        Num(x), Num(kTop), Num(axis_y), e == 0 ? "#444" : "#e3e3e3", e == 0 ? 1.5 : 1);
    s += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"11\" text-anchor=\"middle\">{}</text>\n",
                     Num(x), Num(axis_y + 15), PowLabel(e));
  }
  s += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\">{}</text>\n",
                   Num(kLeft + plot_w / 2), Num(axis_y + 36), HtmlEscape(x_label));
  for (size_t r = 0; r < series.size(); ++r) {
    const double cy = kTop + kRow * r + kRow / 2;
    std::vector<double> v;
    for (double x : series[r].values) {
      if (x > 0) v.push_back(x);
    }
    std::sort(v.begin(), v.end());
    s += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"end\">{}</text>",
                     Num(kLeft - 8), Num(cy + 4), HtmlEscape(series[r].label));
    if (v.empty()) {
      s += fmt::format(
          "<text x=\"{}\" y=\"{}\" font-size=\"11\" fill=\"#777\">no timed values</text>\n",
          Num(kLeft + 6), Num(cy + 4));
      continue;
    }
    const double q1 = Quantile(v, 0.25), med = Quantile(v, 0.5), q3 = Quantile(v, 0.75);
    s += fmt::format(
        "<rect class=\"box\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" "
        "fill-opacity=\"0.12\" "
        "stroke=\"{}\"/>",
        Num(x_of(q1)), Num(cy - 13), Num(std::max(1.0, x_of(q3) - x_of(q1))), 26, Color(r),
        Color(r));
    s += fmt::format(
        "<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"{3}\" stroke-width=\"2\"/>",
        Num(x_of(med)), Num(cy - 13), Num(cy + 13), Color(r));
    for (size_t i = 0; i < v.size(); ++i) {
      s += fmt::format(
          "<circle class=\"dot\" cx=\"{}\" cy=\"{}\" r=\"3\" fill=\"{}\" "
          "fill-opacity=\"0.75\"><title>{:.3g}x</title>"
          "</circle>",
          Num(x_of(v[i])), Num(cy + 9 * Jitter(i)), Color(r), v[i]);
    }
    s += fmt::format(
        "<text x=\"{}\" y=\"{}\" font-size=\"10\" fill=\"#555\">n={} median {:.2f}x</text>\n",
        Num(kWidth - kRight - 100), Num(cy - 15), v.size(), med);
  }
  return s + "</svg>";
}

std::string SvgLineChart(const std::vector<LineSeries>& series, std::string_view title,
                         std::string_view x_label, std::string_view y_label) {
  constexpr double kLeft = 60, kRight = 170, kTop = 20, kBottom = 50, kWidth = 620, kHeight = 300;
  double x_lo = 0, x_hi = 0, y_lo = 0, y_hi = 0;
  bool first = true;
  for (const auto& l : series) {
    for (const auto& [x, y] : l.points) {
      if (first) {
        x_lo = x_hi = x;
        first = false;
      }
      x_lo = std::min(x_lo, x);
      x_hi = std::max(x_hi, x);
      y_lo = std::min(y_lo, y);
      y_hi = std::max(y_hi, y);
    }
  }
  x_lo = std::min(x_lo, 0.0);
  if (x_hi <= x_lo) x_hi = x_lo + 1;
  if (y_hi <= y_lo) y_hi = y_lo + 1;
  const double plot_w = kWidth - kLeft - kRight, plot_h = kHeight - kTop - kBottom;
  auto px = [&](double x) { return kLeft + (x - x_lo) / (x_hi - x_lo) * plot_w; };
  auto py = [&](double y) { return kTop + plot_h - (y - y_lo) / (y_hi - y_lo) * plot_h; };
  std::string s = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"line\" width=\"{}\" height=\"{}\" "
      "viewBox=\"0 0 {} {}\" "
      "role=\"img\"><title>{}</title>\n",
      kWidth, kHeight, kWidth, kHeight, HtmlEscape(title));
  const double xs = NiceStep(x_hi - x_lo, 6), ys = NiceStep(y_hi - y_lo, 5);
  for (double x = std::ceil(x_lo / xs) * xs; x <= x_hi + 1e-9; x += xs) {
    s += fmt::format(
        "<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#e3e3e3\"/><text x=\"{0}\" "
        "y=\"{3}\" "
        "font-size=\"11\" text-anchor=\"middle\">{4}</text>",
        Num(px(x)), Num(kTop), Num(kTop + plot_h), Num(kTop + plot_h + 15), Tick(x));
  }
  for (double y = std::ceil(y_lo / ys) * ys; y <= y_hi + 1e-9; y += ys) {
    s += fmt::format(
        "<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"#e3e3e3\"/><text x=\"{3}\" "
        "y=\"{4}\" "
        "font-size=\"11\" text-anchor=\"end\">{5}</text>",
        Num(kLeft), Num(py(y)), Num(kLeft + plot_w), Num(kLeft - 5), Num(py(y) + 4), Tick(y));
  }
  s += fmt::format(
      "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#999\"/>\n",
      Num(kLeft), Num(kTop), Num(plot_w), Num(plot_h));
  s += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\">{}</text>",
                   Num(kLeft + plot_w / 2), Num(kHeight - 12), HtmlEscape(x_label));
  s += fmt::format(
      "<text x=\"14\" y=\"{0}\" font-size=\"12\" text-anchor=\"middle\" "
      "transform=\"rotate(-90 14 {0})\">{1}</text>\n",
      Num(kTop + plot_h / 2), HtmlEscape(y_label));
  for (size_t i = 0; i < series.size(); ++i) {
    std::string pts;
    for (const auto& [x, y] : series[i].points) pts += Num(px(x)) + "," + Num(py(y)) + " ";
    s += fmt::format(
        "<polyline class=\"series\" points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"/>",
        Trim(pts), Color(i));
    for (const auto& [x, y] : series[i].points) {
      s += fmt::format(
          "<circle cx=\"{}\" cy=\"{}\" r=\"3.5\" fill=\"{}\"><title>{}: {} {}, {} "
          "{:.3g}</title></circle>",
          Num(px(x)), Num(py(y)), Color(i), HtmlEscape(series[i].label), HtmlEscape(x_label),
          Tick(x), HtmlEscape(y_label), y);
    }
    const double ly = kTop + 10 + 18 * i;
    s += fmt::format(
        "<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"{3}\" stroke-width=\"2\"/>"
        "<text x=\"{4}\" y=\"{5}\" font-size=\"11\">{6}</text>\n",
        Num(kLeft + plot_w + 10), Num(ly), Num(kLeft + plot_w + 30), Color(i),
        Num(kLeft + plot_w + 35), Num(ly + 4), HtmlEscape(series[i].label));
  }
  return s + "</svg>";
}

}  // namespace regrapht
