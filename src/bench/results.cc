// MergeResults, RepairResults and RenderReport (regrapht/results.h): the
// results databases as `bench merge`, `bench repair` and `report` use them.
#include "regrapht/results.h"

#include <algorithm>
#include <optional>
#include <set>
#include <system_error>

#include "bench/coverage.h"
#include "bench/report.h"
#include "bench/report_protocol.h"
#include "bench/suite.h"
#include "core/fs.h"
#include "core/json_util.h"
#include "core/strings.h"
#include "store/results_store.h"

namespace regrapht {

Result<MergeCounts> MergeResults(const std::string& out, const std::vector<std::string>& inputs) {
  std::error_code ec;
  const bool out_existed = fs::exists(out, ec);
  RG_ASSIGN_OR_RETURN(std::unique_ptr<ResultsStore> store, ResultsStore::Open(out));
  std::vector<fs::path> paths(inputs.begin(), inputs.end());
  auto stats = store->MergeFrom(paths);
  if (!stats.ok()) {
    // A merge that fails (a missing or bad input, a conflict) leaves no
    // output it created: an empty database would pass for a result.
    store.reset();
    if (!out_existed) {
      for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(out + suffix, ec);
    }
    return stats.status();
  }
  RG_ASSIGN_OR_RETURN(std::vector<ResultRow> rows, store->Query());
  MergeCounts c;
  c.inputs = stats->inputs;
  c.rows_added = stats->rows_added;
  c.rows_same = stats->rows_same;
  c.rows = static_cast<int64_t>(rows.size());
  return c;
}

Result<RepairCounts> RepairResults(const std::string& input, const std::string& output) {
  return ResultsStore::Repair(input, output);
}

namespace {

// The report with its budget-use and seed-spread views (bench/report_protocol.h):
// a Markdown section after the tables; in JSON, "budget_use" and "seed_spread"
// in each experiment's object; CSV unchanged.
std::string WithBudgetAndSeeds(std::string text, const std::string& format,
                               const std::vector<ResultRow>& rows,
                               const std::vector<bench::GroupMetrics>& groups) {
  auto use = bench::SummarizeBudgetUse(rows);
  auto seeds = bench::SummarizeSeeds(groups);
  if (format == "md") return text + bench::PrintBudgetAndSeeds(use, seeds);
  if (format != "json") return text;
  OrderedJson arr = OrderedJson::parse(text);
  for (auto& g : arr) {
    for (const auto& u : use) {
      if (u.suite == g["suite"] && u.method == g["method"] && u.model == g["model"] &&
          u.config_hash == g["config_hash"]) {
        g["budget_use"] = bench::BudgetUseJson(u);
      }
    }
    for (const auto& sp : seeds) {
      if (sp.suite == g["suite"] && sp.method == g["method"] && sp.model == g["model"]) {
        OrderedJson cfg = g["config"];
        uint64_t seed = cfg.contains("seed") && cfg["seed"].is_number_unsigned()
                            ? cfg["seed"].get<uint64_t>()
                            : 1;
        if (std::find(sp.seeds.begin(), sp.seeds.end(), seed) != sp.seeds.end()) {
          g["seed_spread"] = bench::SeedSpreadJson(sp);
        }
      }
    }
  }
  return DumpJson(arr);
}

// What a report is made of: the rows and plan of the experiments asked for,
// and the suite whose problems are expected (a suite folder).
struct ReportInput {
  std::vector<ResultRow> rows;
  std::vector<PlanEntry> plan;
  std::optional<bench::Suite> expected;
};

// The NotFound error of a filter that kept nothing of databases that hold
// other suites or methods: an empty table would read as "no results".
Status NothingOfWhatWasAsked(const ReportOptions& st, const ReportInput& in,
                             const std::set<std::string>& suites_there,
                             const std::set<std::string>& methods_there) {
  const std::string asked = in.expected ? "suite '" + in.expected->name + "' (" + st.suite + ")"
                            : st.suite.empty()
                                ? "method '" + st.method + "'"
                                : "suite '" + st.suite + "'" +
                                      (st.method.empty() ? "" : " and method '" + st.method + "'");
  return Status::NotFound(
      Join(st.dbs, ", ") + ": no rows or plan of " + asked + "; it holds suite(s) " +
      Join(std::vector<std::string>(suites_there.begin(), suites_there.end()), ", ") +
      " and method(s) " +
      Join(std::vector<std::string>(methods_there.begin(), methods_there.end()), ", "));
}

// Reads the databases (only read: their union in memory) and keeps the rows
// and plan of the suite and method asked for.
Result<ReportInput> LoadReportInput(const ReportOptions& st) {
  std::error_code ec;
  RG_ASSIGN_OR_RETURN(std::unique_ptr<ResultsStore> store,
                      ResultsStore::Open(fs::path(":memory:")));
  RG_RETURN_IF_ERROR(
      store->MergeFrom(std::vector<fs::path>(st.dbs.begin(), st.dbs.end())).status());
  ReportInput in;
  if (!st.suite.empty() && fs::exists(fs::path(st.suite) / "suite.json", ec)) {
    RG_ASSIGN_OR_RETURN(in.expected, bench::LoadSuite(st.suite));
  }
  RG_ASSIGN_OR_RETURN(
      in.rows, store->Query());  // every row: keep() below filters, and says what else is there
  RG_ASSIGN_OR_RETURN(in.plan, store->QueryPlan());
  auto keep = [&](const std::string& suite, const std::string& method) {
    if (!st.method.empty() && method != st.method) return false;
    if (in.expected) return suite == in.expected->name || suite == in.expected->name + "/kernel";
    return st.suite.empty() || suite == st.suite;
  };
  std::set<std::string> suites_there, methods_there;
  for (const ResultRow& r : in.rows) {
    suites_there.insert(r.key.suite);
    methods_there.insert(r.key.method);
  }
  for (const PlanEntry& e : in.plan) {
    suites_there.insert(e.suite);
    methods_there.insert(e.method);
  }
  std::erase_if(in.rows, [&](const ResultRow& r) { return !keep(r.key.suite, r.key.method); });
  std::erase_if(in.plan, [&](const PlanEntry& e) { return !keep(e.suite, e.method); });
  if (in.rows.empty() && in.plan.empty() && !suites_there.empty() &&
      (!st.suite.empty() || !st.method.empty())) {
    return NothingOfWhatWasAsked(st, in, suites_there, methods_there);
  }
  return in;
}

}  // namespace

Result<std::string> RenderReport(const ReportOptions& st) {
  RG_ASSIGN_OR_RETURN(ReportInput in, LoadReportInput(st));
  bench::MetricsOptions mo;
  mo.ks = st.ks;
  mo.bootstrap = st.bootstrap;
  mo.timing = st.timing;
  auto groups = bench::ComputeMetrics(in.rows, mo);
  bench::AddCoverage(in.rows, in.plan, in.expected ? &*in.expected : nullptr, &groups);
  bench::SortForDisplay(&groups);
  if (st.format == "html") {
    // The page always holds the per-problem table: per_problem changes nothing.
    bench::HtmlReportInput html{std::move(groups), mo.ks, std::move(in.rows), st.dbs, mo.timing};
    return bench::RenderHtmlReport(html);
  }
  if (st.paper) {
    const std::string path = st.paper_data.empty()
                                 ? (DataDir() / "paper" / "regrapht-2510.19873.json").string()
                                 : st.paper_data;
    RG_ASSIGN_OR_RETURN(auto paper, bench::LoadPaperData(path));
    return bench::PrintPaperTables(groups, paper);
  }
  if (st.per_problem) return bench::PrintPerProblem(bench::SummarizeProblems(in.rows), st.format);
  std::unique_ptr<bench::ReportPrinter> printer = bench::NewReportPrinter(st.format, mo.timing);
  if (printer == nullptr)
    return Status::InvalidArgument("report: unknown format \"" + st.format +
                                   "\" (md, csv, json, html)");
  std::string text = printer->Print(groups, mo.ks);
  return WithBudgetAndSeeds(std::move(text), st.format, in.rows, groups);
}

}  // namespace regrapht
