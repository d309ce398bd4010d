// Comparing search methods at equal budgets with a SIMULATED small model on a
// real reasoning graph (`regrapht simulate`; docs/search.md, "Simulation").
// No model and no GPU: each simulated problem is a seeded world in which
// every technique has a success probability and a speedup factor, and the
// model's replies and the verifier's verdicts follow those rules (inside the
// library, search/simulated.h). Nothing here says anything about real CUDA;
// it says how the searches spend a budget.
//
//   Result<std::vector<SimulationRow>> rows =
//       RunSimulation(graph, {"regrapht-mcgs", "best-of-n"}, {20, 100}, 100, SearchOptions{});
//
// Thread safety: RunSimulation reads `graph` only; calls may run
// concurrently on one const graph.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "regrapht/graph.h"
#include "regrapht/search.h"
#include "regrapht/status.h"

namespace regrapht {

// One method at one budget, over every simulated problem and seed.
struct SimulationRow {
  std::string method;
  int budget = 0;
  int seeds = 1;  // search seeds per problem
  double mean_best = 0,
         median_best = 0;  // best speedup found (1.0 when nothing correct: the serial code)
  double solved = 0;       // fraction of problems with a correct candidate
  double mean_generations = 0, mean_verifications = 0;  // per search
  // Across seeds: the spread of the per-seed mean best speedup and solved
  // fraction (sample standard deviation; 0 with one seed), min and max.
  double sd_mean_best = 0, min_mean_best = 0, max_mean_best = 0;
  double sd_solved = 0;
  // Why the searches stopped: reason -> searches.
  std::map<std::string, int> stops;
};

// Runs `methods` (NewReasoner's names) on `problems` simulated problems for each budget, each
// problem with `seeds` search seeds (problem p, seed s: 1000 + p + 100000 s;
// seed 0 is the single-seed run's).
Result<std::vector<SimulationRow>> RunSimulation(const Graph& graph,
                                                 const std::vector<std::string>& methods,
                                                 const std::vector<int>& budgets, int problems,
                                                 const SearchOptions& base, int seeds = 1);
// Fails (the Status of NewReasoner or of a search) on an unknown method or a
// method that cannot run on `graph`.

}  // namespace regrapht
