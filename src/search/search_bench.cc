// MCGS framework overhead per iteration (issue 5's target: under 1 ms with a
// 200-node search tree), excluding model and verification time: the shipped
// reasoning graph, a PathModel that answers instantly and a PathEvaluator that
// scores technique paths; everything else (selection, expansion, rollouts,
// backup, transpositions, prompt building with BM25 example retrieval, tree
// JSON) is the real code.
//   build/src/search/search_bench --benchmark_repetitions=5
#include <benchmark/benchmark.h>

#include <cstdlib>

#include "core/clock.h"
#include "core/hash.h"
#include "core/json_util.h"
#include "core/strings.h"
#include "graph/retrieval.h"
#include "regrapht/graph.h"
#include "regrapht/search.h"
#include "search/fakes.h"
#include "search/prompts.h"
#include "verify/test_util.h"

namespace regrapht::search {
namespace {

// Each technique multiplies the speedup by a factor fixed by its name; about
// one path in six breaks the code (deterministic from the path).
double Score(const std::string& path) {
  uint64_t h = Hash64(path);
  if (h % 6 == 0) return 0;
  double s = 1;
  for (const auto& t : Split(path, '>')) s *= 1.0 + static_cast<double>(Hash64(t) % 100) / 100.0;
  return s;
}

void BM_McgsIteration(benchmark::State& state) {
  auto graph = LoadGraph(testing_util::SourceDir() / "data" / "graph" / "regrapht.json");
  if (!graph.ok()) {
    state.SkipWithError(graph.status().ToString().c_str());
    return;
  }
  std::map<std::string, std::string> names;
  for (NodeId n = 0; n < graph->num_nodes(); ++n) names[graph->node(n).name] = graph->node(n).technique;
  Problem problem = testing_util::LoadBundled("saxpy");
  ExampleIndex index(*graph);
  PromptLibrary prompts;
  FakeClock clock;
  const int budget = static_cast<int>(state.range(0));
  int64_t iterations = 0, tree_nodes = 0;
  for (auto _ : state) {
    PathModel model(names);
    PathEvaluator eval(Score);
    SearchOptions o;
    o.budget.max_generations = budget;
    o.max_depth = 8;
    auto reasoner = NewReasoner("regrapht-mcgs", o);
    SearchTask task;
    task.problem = &problem;
    task.graph = &*graph;
    task.examples = &index;
    SearchContext ctx{&model, &eval, &prompts, &clock, nullptr};
    auto out = (*reasoner)->Run(task, ctx);
    if (!out.ok()) {
      state.SkipWithError(out.status().ToString().c_str());
      return;
    }
    Json tree = Json::parse(out->tree_json);
    iterations += static_cast<int64_t>(tree["iterations"].size());
    tree_nodes = static_cast<int64_t>(tree["nodes"].size());
  }
  state.counters["tree_nodes"] = static_cast<double>(tree_nodes);
  state.counters["iterations"] = benchmark::Counter(static_cast<double>(iterations), benchmark::Counter::kAvgIterations);
  // Wall time per MCGS iteration (selection + expansion + rollout + backup).
  state.counters["s_per_iteration"] = benchmark::Counter(
      static_cast<double>(iterations), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_McgsIteration)->Arg(50)->Arg(200)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace regrapht::search

BENCHMARK_MAIN();
