// A fixed small results set for the HTML report's tests (report_test.cc and
// the report_fixture_db tool the CLI and browser tests use): two suites, four
// methods, tiers, two machines, stored sources, one method at two budgets,
// timed, untimed, emulated and compiled-only samples, and a plan with a
// missing problem.
#pragma once

#include <string>
#include <vector>

#include "store/results_store.h"

namespace regrapht::bench::fixture {

inline constexpr const char* kH200Env =
    R"json({"gpu_name": "NVIDIA H200", "gpu_cc": "9.0", "gpu_sms": 132, "gpu_l2_bytes": 62914560,
"driver_version": "13.0", "cuda_runtime_version": "13.0", "cuda_toolkit_version": "13.0.88",
"host_cpu": "Intel Xeon", "host_compiler": "g++ 14.2", "nvcc_flags": "-O3", "reference_flags": "-O2",
"archs": "sm_90", "sandbox": "bubblewrap", "regrapht_version": "0.1.0"})json";
inline constexpr const char* kEmulatorEnv =
    R"json({"gpu_name": "regrapht CUDA emulator (CPU)", "gpu_cc": "", "gpu_sms": 0, "gpu_l2_bytes": 0,
"host_cpu": "AMD EPYC", "host_compiler": "g++ 14.2", "archs": "sm_90", "sandbox": "bubblewrap",
"regrapht_version": "0.1.0"})json";

inline ResultRow Row(const std::string& suite, const std::string& method, int budget,
                     const std::string& problem, const std::string& tier, int sample,
                     const std::string& verdict, double speedup) {
  ResultRow r;
  const std::string cfg = "{\"budget\": " + std::to_string(budget) + "}";
  r.key = {suite,
           problem,
           method,
           method == "reference" ? "" : "qwen2.5-coder-7b",
           "cfg" + std::to_string(budget) + "0000000000000",
           sample};
  r.tier = tier;
  r.config_json = cfg;
  r.verdict = verdict;
  r.speedup = speedup;
  r.reference_ms = 12;
  r.candidate_ms = speedup > 0 ? 12 / speedup : 0;
  r.tokens_prompt = 1000;
  r.tokens_generated = 300;
  r.generations = 3;
  r.verifications = 3;
  r.candidate_source = "__global__ void " + problem + "_kernel(float* x, int n) {\n  // " + method +
                       " sample " + std::to_string(sample) + " <&>\n}\n";
  r.candidate_hash = problem + method + std::to_string(sample);
  r.env_json = verdict == "correct" && speedup == 0 ? kEmulatorEnv : kH200Env;
  if (verdict == "compiled_only") r.env_json = "";
  r.created_at = "2026-01-01T00:00:00Z";
  return r;
}

inline std::vector<ResultRow> Rows() {
  std::vector<ResultRow> rows;
  auto add = [&](const std::string& method, int budget, const std::string& p,
                 const std::string& tier, int s, const std::string& v, double speedup) {
    rows.push_back(Row("cudaeval", method, budget, p, tier, s, v, speedup));
  };
  add("reference", 0, "saxpy", "easy", 0, "correct", 10);
  add("reference", 0, "stencil", "medium", 0, "correct", 4);
  add("reference", 0, "bfs", "hard", 0, "correct", 2.5);
  add("regrapht-mcgs", 8, "saxpy", "easy", 0, "correct", 8);
  add("regrapht-mcgs", 8, "saxpy", "easy", 1, "correct", 6);
  add("regrapht-mcgs", 8, "stencil", "medium", 0, "wrong_answer", 0);
  add("regrapht-mcgs", 8, "stencil", "medium", 1, "correct", 1.5);
  add("regrapht-mcgs", 8, "bfs", "hard", 0, "compile_error", 0);
  add("regrapht-mcgs", 8, "bfs", "hard", 1, "correct", 0);  // emulated: correct, untimed
  add("regrapht-mcgs", 4, "saxpy", "easy", 0, "correct", 3);
  add("regrapht-mcgs", 4, "saxpy", "easy", 1, "wrong_answer", 0);
  add("regrapht-mcgs", 4, "stencil", "medium", 0, "timeout", 0);
  add("regrapht-mcgs", 4, "stencil", "medium", 1, "correct", 1.1);
  add("regrapht-mcgs", 4, "bfs", "hard", 0, "compile_error", 0);
  add("regrapht-mcgs", 4, "bfs", "hard", 1, "compile_error", 0);
  add("standard", 8, "saxpy", "easy", 0, "correct", 0.5);
  add("standard", 8, "stencil", "medium", 0, "compiled_only", 0);
  add("standard", 8, "bfs", "hard", 0, "static_reject", 0);
  rows.push_back(Row("pareval", "standard", 8, "reduce_sum", "reduce", 0, "correct", 2));
  rows.push_back(Row("pareval", "standard", 8, "scan", "scan", 0, "wrong_answer", 0));
  return rows;
}

// The plan: regrapht-mcgs at budget 8 also meant to run "sort" (missing).
inline std::vector<PlanEntry> Plan() {
  std::vector<PlanEntry> plan;
  for (const char* p : {"saxpy", "stencil", "bfs"}) {
    plan.push_back({"cudaeval", p, "", "reference", "", "cfg00000000000000", 1});
  }
  for (const char* p : {"saxpy", "stencil", "bfs", "sort"}) {
    plan.push_back(
        {"cudaeval", p, "", "regrapht-mcgs", "qwen2.5-coder-7b", "cfg80000000000000", 2});
  }
  return plan;
}

}  // namespace regrapht::bench::fixture
