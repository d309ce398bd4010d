// regrapht simulate: compare search methods at equal budgets with a
// SIMULATED small model on the real reasoning graph (src/search/simulated.h).
#include <cstdio>
#include <memory>

#include "cli/commands.h"
#include "cli/json_output.h"
#include "cli/number_flags.h"
#include "core/fs.h"
#include "core/strings.h"
#include "search/simulated.h"

namespace regrapht::cli {

std::function<int()> SimulateCommand(CLI::App* sub) {
  struct State {
    std::string methods = "regrapht-mcgs,regrapht,best-of-n", graph;
    std::vector<int> budgets = {5, 10, 20, 50, 100};
    int problems = 100, max_depth = 6, rollouts = 1;
    bool json = false;
  };
  auto st = std::make_shared<State>();
  sub->add_option("--methods", st->methods, "methods to compare")->capture_default_str();
  AddNumbers(sub, "--budgets", &st->budgets, kBudgetRange, "generation budgets");
  AddNumber(sub, "--problems", &st->problems, {1, 1000000}, "simulated problems (seeds) per point");
  AddNumber(sub, "--max-depth", &st->max_depth, kMaxDepthRange, "step cap");
  AddNumber(sub, "--rollouts", &st->rollouts, {1, 1000}, "MCGS: rollouts per iteration (the paper uses 10)");
  sub->add_option("--graph", st->graph, "reasoning graph (default: the shipped one)");
  AddJsonFlag(sub, &st->json, "the table (one row per method and budget)");
  return [st]() -> int {
    std::string path = st->graph.empty() ? (DataDir() / "graph" / "regrapht.json").string() : st->graph;
    auto g = LoadGraph(path);
    if (!g.ok()) return Fail(g.status());
    const std::vector<int>& budgets = st->budgets;
    SearchOptions o;
    o.max_depth = st->max_depth;
    o.rollouts = st->rollouts;
    auto rows = search::RunSimulation(*g, Split(st->methods, ','), budgets, st->problems, o);
    if (!rows.ok()) return Fail(rows.status());
    std::printf("SIMULATION (no model, no GPU: src/search/simulated.h's rules) on %s, %d problems per point\n\n",
                path.c_str(), st->problems);
    std::printf("| method | budget | mean best speedup | median best speedup | solved %% | generations used |\n");
    std::printf("|---|---|---|---|---|---|\n");
    OrderedJson out = OrderedJson::array();
    for (const auto& r : *rows) {
      out.push_back({{"method", r.method},
                     {"budget", r.budget},
                     {"mean_best_speedup", r.mean_best},
                     {"median_best_speedup", r.median_best},
                     {"solved", r.solved},
                     {"mean_generations", r.mean_generations}});
      std::printf("| %s | %d | %.2fx | %.2fx | %.1f | %.1f |\n", r.method.c_str(), r.budget, r.mean_best,
                  r.median_best, 100 * r.solved, r.mean_generations);
    }
    if (st->json) {
      EmitJson(OrderedJson{{"simulated", true}, {"graph", path}, {"problems", st->problems}, {"rows", out}});
    }
    return kExitOk;
  };
}

}  // namespace regrapht::cli
