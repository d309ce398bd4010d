// Report printers (llama-bench style): the paper's tables from metrics, a
// per-problem view, and one self-contained HTML page (report_html.cc).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "bench/metrics.h"

namespace regrapht::bench {

class ReportPrinter {
 public:
  virtual ~ReportPrinter() = default;
  // The whole report for `groups` (already in display order).
  virtual std::string Print(const std::vector<GroupMetrics>& groups, const std::vector<int>& ks) = 0;
};

// The printers' number formats: a fraction of 1 with three decimals
// ("0.420": pass@k, compile@k, fast_p are fractions in every format, md,
// csv, json and html alike) and a speedup ("1.25x").
std::string FormatFraction(double fraction);
std::string FormatSpeedup(double ratio);

// "md", "csv" or "json"; nullptr for anything else. `timing` is what the
// metrics were computed with (MetricsOptions::timing): "call" labels the
// speed columns "call" and adds the kernel-only ones beside them; "kernel"
// labels them "kernel".
std::unique_ptr<ReportPrinter> NewReportPrinter(const std::string& format, const std::string& timing = "call");

// Sorts groups by suite, then the methods in the paper's order.
void SortForDisplay(std::vector<GroupMetrics>* groups);

// The paper's order of methods (standard, cot, rag, ..., reference); unknown
// methods after them.
int MethodRank(const std::string& method);
// Tiers in their natural order (easy, medium, hard), then any other names
// (a suite's problem types) in name order.
std::vector<std::string> OrderTiers(std::set<std::string> names);

// One problem of one experiment (suite, method, model, config): its samples.
struct ProblemSummary {
  std::string suite, method, model, config_hash, problem, tier;
  int samples = 0;
  int correct = 0;                      // correct samples, timed or not
  int timed = 0;                        // correct samples with a speedup
  // "solved" when a sample is correct, else the most frequent verdict of its
  // samples (ties: the first in name order), e.g. "compiled_only".
  std::string verdict;
  std::map<std::string, int> verdicts;  // verdict -> samples
  std::map<std::string, int> evidence;  // evidence level (kEvidenceLevels) -> samples
  std::optional<double> best_speedup;   // over timed correct samples; none when none was timed
  std::optional<double> mean_speedup;
  double reference_ms = 0;              // the fastest reference time recorded (0: none)
  std::optional<double> best_ms;        // the best sample's candidate time
  // The sample behind best_speedup; else the first correct one; else -1.
  int best_sample = -1;
  std::string best_evidence;            // that sample's evidence level ("" when -1)
};

// One summary per (suite, method, model, config, problem) of `rows`, ordered
// by suite, problem, then the methods in the paper's order, model, config.
std::vector<ProblemSummary> SummarizeProblems(const std::vector<ResultRow>& rows);

// The per-problem table as "md", "csv" or "json" (unmeasured speeds: "-",
// empty and null respectively). REQUIRES: a valid format.
std::string PrintPerProblem(const std::vector<ProblemSummary>& problems, const std::string& format);

// What the HTML report is drawn from.
struct HtmlReportInput {
  std::vector<GroupMetrics> groups;   // in display order (SortForDisplay), coverage set
  std::vector<int> ks;
  std::vector<ResultRow> rows;        // the rows behind `groups`
  std::vector<std::string> databases; // named in the page's header
  // What the metrics were computed with (MetricsOptions::timing): "call"
  // labels the speed columns "(call)" and adds the kernel-only speedup@1 and
  // geomean beside them; "kernel" labels them "(kernel)".
  std::string timing = "call";
};

// One self-contained page (inline CSS and SVG, no scripts, nothing fetched):
// per suite the methods x metrics table with 95% CIs, the per-tier table with
// CIs, coverage, speedup distributions (one strip per method), pass@k and
// speedup@k against k and against the search budget where the data has
// several, and the per-problem table with every distinct candidate source in
// a <details> element; then the environment of every machine that produced
// rows. Tables and figures carry stable ids and classes (docs/bench.md).
std::string RenderHtmlReport(const HtmlReportInput& input);

}  // namespace regrapht::bench
