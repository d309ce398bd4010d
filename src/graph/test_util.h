// Helpers shared by the graph module's tests.
#pragma once

#include <cstdlib>
#include <string>

#include "core/fs.h"
#include "regrapht/graph.h"
#include "graph/trajectory.h"

namespace regrapht::testing_util {

// The source tree (set by CTest; falls back to the working directory's
// ancestors so the test binary also runs by hand from build/).
inline fs::path SourceDir() {
  if (const char* dir = std::getenv("REGRAPHT_SOURCE_DIR")) return dir;
  fs::path p = fs::current_path();
  while (!p.empty() && p != p.root_path()) {
    if (fs::exists(p / "data" / "taxonomy.json")) return p;
    p = p.parent_path();
  }
  return ".";
}

// Compares `actual` with tests/golden/<name>; with REGRAPHT_UPDATE_GOLDEN=1
// in the environment, rewrites the golden file instead.
inline std::string CheckGolden(const std::string& name, const std::string& actual) {
  fs::path path = SourceDir() / "tests" / "golden" / name;
  if (std::getenv("REGRAPHT_UPDATE_GOLDEN")) {
    Status s = WriteFile(path, actual);
    return s.ok() ? "" : s.ToString();
  }
  auto expected = ReadFile(path);
  if (!expected.ok()) return expected.status().ToString();
  if (*expected != actual) {
    return path.string() + " differs; rerun with REGRAPHT_UPDATE_GOLDEN=1 to accept:\n" + actual;
  }
  return "";
}

// A trajectory built in memory: steps are (technique id or method, code).
inline Trajectory MakeTrajectory(
    const std::string& kernel, const std::string& source,
    const std::vector<std::pair<std::string, std::string>>& steps, bool ids_are_techniques = true) {
  Trajectory t;
  t.kernel_id = kernel;
  t.name = kernel;
  t.sequential_source = source;
  for (const auto& [method, code] : steps) {
    TrajectoryStep s;
    s.method = method;
    if (ids_are_techniques) s.technique_id = method;
    s.think = "think about " + method;
    s.detail = "apply " + method;
    s.code = code;
    t.steps.push_back(std::move(s));
  }
  return t;
}

// A small fixed graph with a self-loop, a back-edge (cycle), an unreviewed
// technique and one verification record:
//   0 init -> 1 thread_mapping (2 examples) -> 2 shared_memory_tiling -> 2 (self-loop)
//   2 -> 1 (back-edge); 1 -> 3 loop_unrolling -> 4 "Bit packing" (needs review)
inline Graph SmallGraph() {
  Graph g;
  auto node = [&](const char* name, const char* technique, bool review = false) {
    NodeSpec spec;
    spec.name = name;
    spec.technique = technique;
    spec.description = std::string("About ") + name + ".";
    spec.needs_review = review;
    return g.AddNode(std::move(spec)).value();
  };
  NodeId tm = node("Thread mapping (parallelization)", "thread_mapping");
  NodeId smem = node("Shared-memory tiling", "shared_memory_tiling");
  NodeId unroll = node("Loop unrolling", "loop_unrolling");
  NodeId bits = node("Bit packing", "", true);
  auto example = [](const char* kernel, const char* before, const char* after) {
    Example x;
    x.kernel = kernel;
    x.method = "method for " + std::string(kernel);
    x.think = "why \"quoted\"";
    x.detail = "how, with unicode: \u00b5s";
    x.before = before;
    x.after = after;
    return x;
  };
  EdgeId e0 = g.AddEdge(kInitNode, tm).value();
  Example verified = example("vec_add", "void vec_add(float* a){ for(int i=0;i<n;i++) a[i]+=1; }",
                             "__global__ void k(float* a){ a[threadIdx.x]+=1; }");
  StepVerification v;
  v.compiled = true;
  v.archs = {"sm_80", "sm_90"};
  v.correctness = Correctness::kCorrect;
  v.gpu = "NVIDIA H200";
  v.speedup = 12.5;
  v.source_hash = "00112233445566778899aabbccddeeff";
  v.verifier = "regrapht-verify test";
  verified.verification = v;
  g.AddExample(e0, verified);
  g.AddExample(e0, example("saxpy", "void saxpy(){ y[i] = a*x[i] + y[i]; }", "__global__ saxpy"));
  EdgeId e1 = g.AddEdge(tm, smem).value();
  g.AddExample(e1, example("matmul", "matmul v1", "matmul v2"));
  EdgeId e2 = g.AddEdge(smem, smem).value();
  g.AddExample(e2, example("matmul", "matmul v2", "matmul v3"));
  EdgeId e3 = g.AddEdge(smem, tm).value();
  g.AddExample(e3, example("stencil", "stencil v2", "stencil v3"));
  EdgeId e4 = g.AddEdge(tm, unroll).value();
  g.AddExample(e4, example("saxpy", "saxpy v1", "saxpy v2"));
  EdgeId e5 = g.AddEdge(unroll, bits).value();
  g.AddExample(e5, example("saxpy", "saxpy v2", "saxpy v3"));
  return g;
}

}  // namespace regrapht::testing_util
