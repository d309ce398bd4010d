// Self-contained HTML pages (reports that open offline): escaping, the one
// page skeleton with inline CSS, line diffs, and small inline-SVG charts.
//
// Pages made here load nothing: no scripts, no fonts, no images from
// elsewhere; figures are inline <svg> elements.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace regrapht {

// Escapes &, <, >, " and ' for text and attribute values.
std::string HtmlEscape(std::string_view s);

// A whole page: doctype, <meta charset>, <title>, the shared stylesheet
// (inline), and `body` (HTML) inside <body>.
std::string HtmlPage(std::string_view title, std::string_view body);

// A unified diff (lines prefixed ' ', '-', '+'; hunks headed "@@ -a,b +c,d @@")
// from `before` to `after`, with `context` unchanged lines around each change.
// "" when the texts are equal. Longest-common-subsequence on lines; inputs
// beyond 4000 lines each are compared as one replaced block.
std::string UnifiedDiff(std::string_view before, std::string_view after, int context = 3);

// A diff as HTML: <pre class="diff"> with added and removed lines marked.
std::string DiffHtml(std::string_view unified_diff);

// One labelled series of values for a strip plot.
struct StripSeries {
  std::string label;
  std::vector<double> values;  // > 0 (plotted on a log scale)
};

// A horizontal strip plot with a box (quartiles, median) per series, on a
// log2 x axis with a reference line at 1 (e.g. speedups: one dot per
// sample). `title` becomes the SVG's <title>. Series without values are
// drawn as an empty row labelled "no values".
std::string SvgStripPlot(const std::vector<StripSeries>& series, std::string_view title,
                         std::string_view x_label);

// One line of a line chart: (x, y) points in x order.
struct LineSeries {
  std::string label;
  std::vector<std::pair<double, double>> points;
};

// A line chart with points, linear axes from 0 (or the data's minimum if
// negative) to the data's maximum, and a legend.
std::string SvgLineChart(const std::vector<LineSeries>& series, std::string_view title,
                         std::string_view x_label, std::string_view y_label);

}  // namespace regrapht
