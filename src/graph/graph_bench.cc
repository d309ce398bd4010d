// Benchmarks for the graph module. Targets (issue 4): load a graph of 10,000
// examples in under 1 s; merge 1,000 trajectories in under 1 s.
//
//   build/src/graph/graph_bench --benchmark_repetitions=5
//       --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "core/fs.h"
#include "core/json_util.h"
#include "core/rng.h"
#include "graph/graph_json.h"
#include "graph/merge.h"
#include "graph/relabel.h"
#include "graph/retrieval.h"
#include "graph/stats.h"
#include "graph/taxonomy.h"

namespace regrapht {
namespace {

const Taxonomy& Tax() {
  static const Taxonomy tax = Taxonomy::Builtin().value();
  return tax;
}

// Code of roughly `lines` lines that differs per (kernel, step).
std::string SyntheticCode(int kernel, int step, int lines) {
  std::string s = "#include <cuda_runtime.h>\n__global__ void k" + std::to_string(kernel) +
                  "_step" + std::to_string(step) + "(const float* __restrict__ in, float* out, int n) {\n";
  for (int i = 0; i < lines; ++i) {
    s += "  float v" + std::to_string(i) + " = in[(blockIdx.x * blockDim.x + threadIdx.x + " +
         std::to_string(i * (kernel % 7 + 1)) + ") % n] * " + std::to_string(step + i) + ".5f;\n";
  }
  s += "  out[blockIdx.x * blockDim.x + threadIdx.x] = v0;\n}\n";
  return s;
}

// `count` trajectories of 1-8 steps over the taxonomy's techniques, seeded.
std::vector<Trajectory> SyntheticTrajectories(int count, uint64_t seed, bool free_text) {
  Rng rng(seed);
  const auto& techs = Tax().techniques();
  std::vector<Trajectory> out;
  for (int k = 0; k < count; ++k) {
    Trajectory t;
    t.kernel_id = "kernel_" + std::to_string(k);
    t.name = "f" + std::to_string(k);
    t.sequential_source = "void f" + std::to_string(k) + "(float* a, int n) {\n" +
                          SyntheticCode(k, 0, 10) + "}\n";
    int steps = 1 + static_cast<int>(rng.Below(8));
    // Favour a dozen common techniques, as real trajectories do.
    for (int s = 0; s < steps; ++s) {
      size_t pick = rng.Uniform() < 0.8 ? rng.Below(12) : rng.Below(techs.size());
      TrajectoryStep step;
      step.method = free_text ? "Use " + techs[pick].synonyms[rng.Below(techs[pick].synonyms.size())] +
                                    " to speed it up"
                              : techs[pick].id;
      if (!free_text) step.technique_id = techs[pick].id;
      step.think = "Reasoning for step " + std::to_string(s) + " of kernel " + std::to_string(k);
      step.detail = "Apply " + techs[pick].name;
      step.code = SyntheticCode(k, s + 1, 30);
      t.steps.push_back(std::move(step));
    }
    out.push_back(std::move(t));
  }
  return out;
}

// Merges synthetic trajectories until the graph holds exactly `examples`.
Graph GraphWithExamples(size_t examples) {
  Graph g;
  for (int batch = 0; g.num_examples() < examples; ++batch) {
    for (auto& t : SyntheticTrajectories(100, 1000 + batch, false)) {
      t.kernel_id += "_" + std::to_string(batch);
      size_t room = examples - g.num_examples();
      if (room == 0) break;
      if (t.steps.size() > room) t.steps.resize(room);
      (void)MergeTrajectory(t, Tax(), &g).value();
    }
  }
  return g;
}

const std::string& Serialized10k() {
  static const std::string text = SerializeGraph(GraphWithExamples(10000));
  return text;
}

void BM_LoadGraph10kExamples(benchmark::State& state) {
  const std::string& text = Serialized10k();
  for (auto _ : state) {
    auto g = ParseGraph(text, "bench.json");
    if (!g.ok() || g->num_examples() != 10000) state.SkipWithError("load failed");
    benchmark::DoNotOptimize(g);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * text.size());
  state.counters["MB"] = text.size() / 1e6;
}
BENCHMARK(BM_LoadGraph10kExamples)->Unit(benchmark::kMillisecond);

// The shipped graph (data/graph/regrapht.json: 678 examples, 3.4 MB) and a
// graph of the same examples ten times over (each copy under its own kernel
// name): what a user loads at the start of every optimize run, now and
// with ten times the training data.
const std::string& ShippedGraphText() {
  static const std::string text = [] {
    auto t = ReadFile(DataDir() / "graph" / "regrapht.json");
    return t.ok() ? *t : std::string();
  }();
  return text;
}

const std::string& ShippedGraphTimes10Text() {
  static const std::string text = [] {
    auto j = ParseJson(ShippedGraphText(), "regrapht.json");
    if (!j.ok()) return std::string();
    for (Json& edge : (*j)["edges"]) {
      Json copies = Json::array();
      for (int copy = 0; copy < 10; ++copy) {
        for (Json ex : edge["examples"]) {
          ex["kernel"] = ex["kernel"].get<std::string>() + "_copy" + std::to_string(copy);
          copies.push_back(std::move(ex));
        }
      }
      edge["examples"] = std::move(copies);
    }
    return j->dump();
  }();
  return text;
}

const std::string& GraphText(int which) {
  return which == 0 ? ShippedGraphText() : ShippedGraphTimes10Text();
}

void GraphArgs(benchmark::internal::Benchmark* b) {
  b->ArgName("x10")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
}

// The whole load: parse and build the graph.
void BM_LoadShippedGraph(benchmark::State& state) {
  const std::string& text = GraphText(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    auto g = ParseGraph(text, "regrapht.json");
    if (!g.ok()) state.SkipWithError(g.status().ToString().c_str());
    benchmark::DoNotOptimize(g);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * text.size());
}
BENCHMARK(BM_LoadShippedGraph)->Apply(GraphArgs);

// The JSON parse alone (nlohmann through core/json_util.h).
void BM_ParseShippedGraphJson(benchmark::State& state) {
  const std::string& text = GraphText(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    auto j = ParseJson(text, "regrapht.json");
    if (!j.ok()) state.SkipWithError(j.status().ToString().c_str());
    benchmark::DoNotOptimize(j);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * text.size());
}
BENCHMARK(BM_ParseShippedGraphJson)->Apply(GraphArgs);

void BM_SaveGraph10kExamples(benchmark::State& state) {
  Graph g = ParseGraph(Serialized10k(), "bench.json").value();
  for (auto _ : state) benchmark::DoNotOptimize(SerializeGraph(g));
}
BENCHMARK(BM_SaveGraph10kExamples)->Unit(benchmark::kMillisecond);

void BM_Merge1000Trajectories(benchmark::State& state) {
  auto trajectories = SyntheticTrajectories(1000, 7, false);
  size_t steps = 0;
  for (const auto& t : trajectories) steps += t.steps.size();
  for (auto _ : state) {
    Graph g;
    for (const auto& t : trajectories) benchmark::DoNotOptimize(MergeTrajectory(t, Tax(), &g));
    if (g.num_examples() != steps) state.SkipWithError("examples lost");
  }
  state.counters["steps"] = static_cast<double>(steps);
}
BENCHMARK(BM_Merge1000Trajectories)->Unit(benchmark::kMillisecond);

void BM_RelabelAndMerge1000FreeTextTrajectories(benchmark::State& state) {
  auto trajectories = SyntheticTrajectories(1000, 7, true);
  DeterministicRelabeler relabeler(&Tax());
  for (auto _ : state) {
    Graph g;
    for (auto t : trajectories) {
      RelabelInput in;
      in.trajectory = &t;
      auto d = relabeler.Relabel(in).value();
      if (!ApplyLabels(d, &t).ok()) continue;
      benchmark::DoNotOptimize(MergeTrajectory(t, Tax(), &g));
    }
  }
}
BENCHMARK(BM_RelabelAndMerge1000FreeTextTrajectories)->Unit(benchmark::kMillisecond);

void BM_BuildExampleIndex10k(benchmark::State& state) {
  Graph g = ParseGraph(Serialized10k(), "bench.json").value();
  for (auto _ : state) {
    ExampleIndex index(g);
    benchmark::DoNotOptimize(index);
  }
}
BENCHMARK(BM_BuildExampleIndex10k)->Unit(benchmark::kMillisecond);

void BM_RetrieveTop5Global10k(benchmark::State& state) {
  Graph g = ParseGraph(Serialized10k(), "bench.json").value();
  ExampleIndex index(g);
  std::string query = SyntheticCode(3, 2, 30);
  for (auto _ : state) benchmark::DoNotOptimize(index.TopKGlobal(query, 5));
}
BENCHMARK(BM_RetrieveTop5Global10k)->Unit(benchmark::kMicrosecond);

void BM_RetrieveTop3OnEdge10k(benchmark::State& state) {
  Graph g = ParseGraph(Serialized10k(), "bench.json").value();
  ExampleIndex index(g);
  std::string query = SyntheticCode(3, 2, 30);
  EdgeId busiest = 0;
  for (const Edge& e : g.edges()) {
    if (e.examples.size() > g.edge(busiest).examples.size()) busiest = e.id;
  }
  state.counters["edge_examples"] = static_cast<double>(g.edge(busiest).examples.size());
  for (auto _ : state) benchmark::DoNotOptimize(index.TopKOnEdge(query, busiest, 3));
}
BENCHMARK(BM_RetrieveTop3OnEdge10k)->Unit(benchmark::kMicrosecond);

void BM_Stats10k(benchmark::State& state) {
  Graph g = ParseGraph(Serialized10k(), "bench.json").value();
  for (auto _ : state) benchmark::DoNotOptimize(ComputeStats(g));
}
BENCHMARK(BM_Stats10k)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace regrapht

BENCHMARK_MAIN();
