// regrapht simulate: compare search methods at equal budgets with a
// SIMULATED small model on the real reasoning graph (regrapht/simulate.h).
#include <algorithm>
#include <cstdio>
#include <memory>

#include "cli/commands.h"
#include "cli/json_output.h"
#include "cli/number_flags.h"
#include "regrapht/files.h"
#include "regrapht/graph.h"
#include "regrapht/simulate.h"

namespace regrapht::cli {
namespace {

// "a,b,,c" -> {"a", "b", "", "c"}: --methods as a list.
std::vector<std::string> SplitMethods(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    const size_t comma = text.find(',', start);
    out.push_back(text.substr(start, comma - start));
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}

// "budget x480; search space exhausted (...) x20", most frequent first.
std::string StopsText(const std::map<std::string, int>& stops) {
  std::vector<std::pair<int, std::string>> v;
  for (const auto& [why, n] : stops) v.emplace_back(-n, why);
  std::sort(v.begin(), v.end());
  std::string out;
  for (const auto& [n, why] : v) out += (out.empty() ? "" : "; ") + why + " x" + std::to_string(-n);
  return out;
}

struct SimulateState {
  std::string methods = "regrapht-mcgs,regrapht,best-of-n", graph;
  std::vector<int> budgets = {5, 10, 20, 50, 100};
  std::string protocol = "ours", q = "mean";
  int problems = 100, max_depth = 6, rollouts = 1, step_retries = 2, seeds = 1;
  bool close_failed_edges = true;
  bool json = false;
};

// Adds simulate's flags into `st` (--protocol paper's values once parsed).
void AddSimulateFlags(CLI::App* sub, const std::shared_ptr<SimulateState>& st) {
  sub->add_option("--methods", st->methods, "methods to compare")->capture_default_str();
  AddNumbers(sub, "--budgets", &st->budgets, kBudgetRange,
             "generation budgets (--protocol paper: 200)");
  AddNumber(sub, "--problems", &st->problems, {1, 1000000}, "simulated problems (seeds) per point");
  AddNumber(sub, "--seeds", &st->seeds, {1, 1000},
            "search seeds per problem: the table shows the spread of the mean across them");
  AddNumber(sub, "--max-depth", &st->max_depth, kMaxDepthRange, "step cap");
  sub->add_option("--protocol", st->protocol,
                  "ours (the defaults) or paper (rollouts 10, --q max, failed edges never closed, "
                  "budget 200; "
                  "flags given explicitly still apply; docs/search.md \"The paper's protocol\")")
      ->capture_default_str()
      ->check(CLI::IsMember({"ours", "paper"}));
  AddNumber(sub, "--rollouts", &st->rollouts, {1, 1000},
            "MCGS: rollouts per iteration (the paper uses 10)");
  sub->add_option(
         "--q", st->q,
         "MCGS: the Q selection ranks by: mean of backed-up values or their max (the paper)")
      ->capture_default_str()
      ->check(CLI::IsMember({"mean", "max"}));
  AddNumber(sub, "--step-retries", &st->step_retries, {0, 100},
            "times a failed step may be sampled again before its edge closes");
  AddOnOffFlags(sub, "--close-failed-edges",
                "close an edge after 1 + --step-retries failures (the default)",
                "--no-close-failed-edges",
                "never close a failed edge, as the paper does (--protocol paper's choice)",
                &st->close_failed_edges);
  sub->add_option("--graph", st->graph, "reasoning graph (default: the shipped one)");
  AddJsonFlag(sub, &st->json, "the table (one row per method and budget)");
  sub->parse_complete_callback([st, sub] {
    if (st->protocol != "paper") return;
    if (!sub->count("--budgets")) st->budgets = {200};
    if (!sub->count("--rollouts")) st->rollouts = 10;
    if (!sub->count("--q")) st->q = "max";
    if (!sub->count("--close-failed-edges") && !sub->count("--no-close-failed-edges")) {
      st->close_failed_edges = false;
    }
  });
}

// One row of the table: printed, and returned as JSON.
OrderedJson PrintSimulationRow(const SimulationRow& r) {
  OrderedJson stops = OrderedJson::object();
  for (const auto& [why, n] : r.stops) stops[why] = n;
  char spread[96] = "- (1 seed)";
  if (r.seeds > 1) {
    std::snprintf(spread, sizeof spread, "%.2f [%.2fx, %.2fx]", r.sd_mean_best, r.min_mean_best,
                  r.max_mean_best);
  }
  std::printf("| %s | %d | %.2fx | %s | %.2fx | %.1f | %.1f | %.1f | %s |\n", r.method.c_str(),
              r.budget, r.mean_best, spread, r.median_best, 100 * r.solved, r.mean_generations,
              r.mean_verifications, StopsText(r.stops).c_str());
  return {{"method", r.method},
          {"budget", r.budget},
          {"seeds", r.seeds},
          {"mean_best_speedup", r.mean_best},
          {"seed_sd_mean_best_speedup", r.sd_mean_best},
          {"seed_min_mean_best_speedup", r.min_mean_best},
          {"seed_max_mean_best_speedup", r.max_mean_best},
          {"median_best_speedup", r.median_best},
          {"solved", r.solved},
          {"seed_sd_solved", r.sd_solved},
          {"mean_generations", r.mean_generations},
          {"mean_verifications", r.mean_verifications},
          {"stops", stops}};
}

// simulate, once its flags are parsed.
int RunSimulate(const SimulateState& st) {
  std::string path = st.graph.empty() ? (DataDir() / "graph" / "regrapht.json").string() : st.graph;
  auto g = LoadGraph(path);
  if (!g.ok()) return Fail(g.status());
  SearchOptions o;
  o.protocol = st.protocol;
  o.max_depth = st.max_depth;
  o.rollouts = st.rollouts;
  o.q = st.q == "max" ? SearchOptions::QRule::kMax : SearchOptions::QRule::kMean;
  o.step_retries = st.step_retries;
  o.close_failed_edges = st.close_failed_edges;
  auto rows = RunSimulation(*g, SplitMethods(st.methods), st.budgets, st.problems, o, st.seeds);
  if (!rows.ok()) return Fail(rows.status());
  std::printf(
      "SIMULATION (no model, no GPU: src/search/simulated.h's rules) on %s, %d problems per point, "
      "%d seed(s) each\n",
      path.c_str(), st.problems, st.seeds);
  const std::string closing =
      st.close_failed_edges ? "closed after " + std::to_string(1 + st.step_retries) + " failures"
                            : "never closed";
  std::printf("protocol %s: rollouts %d, q %s, failed edges %s, step cap %d\n\n",
              st.protocol.c_str(), st.rollouts, st.q.c_str(), closing.c_str(), st.max_depth);
  std::printf(
      "| method | budget | mean best speedup | across seeds: sd [min, max] | median best speedup | "
      "solved %% "
      "| generations | verifications | why it stopped |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|\n");
  OrderedJson out = OrderedJson::array();
  for (const auto& r : *rows) out.push_back(PrintSimulationRow(r));
  if (st.json) {
    EmitJson(OrderedJson{{"simulated", true},
                         {"graph", path},
                         {"problems", st.problems},
                         {"seeds", st.seeds},
                         {"protocol", st.protocol},
                         {"rows", out}});
  }
  return kExitOk;
}

}  // namespace

std::function<int()> SimulateCommand(CLI::App* sub) {
  auto st = std::make_shared<SimulateState>();
  AddSimulateFlags(sub, st);
  return [st]() -> int { return RunSimulate(*st); };
}

}  // namespace regrapht::cli
