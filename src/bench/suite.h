// Benchmark suites: folders of problems, each with the expert's trajectory
// that decides its tier (the paper's CUDAEval tiers: easy = 1-2 steps,
// medium = 3-5, hard = 6 or more).
//
//   suites/cudaeval/suite.json           {"format": "regrapht-suite", "version": 1, "name": ..., "tiered": true}
//   suites/cudaeval/<problem>/           a problem folder (docs/problem-format.md) plus
//   suites/cudaeval/<problem>/expert.json {"tier", "domain", "trajectory": [technique ids], "notes"}
#pragma once

#include <set>
#include <string>
#include <vector>

#include "core/fs.h"
#include "regrapht/problem.h"

namespace regrapht::bench {

struct SuiteProblem {
  Problem problem;
  std::string tier;                     // easy | medium | hard, the category in grouped suites, or ""
  std::string domain;
  std::vector<std::string> trajectory;  // technique ids
};

struct Suite {
  std::string name;
  std::string description;
  bool tiered = false;
  // "grouped_by": "category" (ParEval): each problem's category stands in
  // for the tier in results and reports (one row per problem type).
  bool grouped_by_category = false;
  fs::path dir;
  std::vector<SuiteProblem> problems;   // sorted by name
};

// The tier a trajectory of `steps` steps belongs to.
std::string TierForSteps(size_t steps);

// Loads and validates a suite. With `known_techniques` non-empty, every
// trajectory id must be in it. Errors name the file and field.
Result<Suite> LoadSuite(const fs::path& dir, const std::set<std::string>& known_techniques = {});

}  // namespace regrapht::bench
