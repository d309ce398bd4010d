#include "construct/prebuild.h"

#include <algorithm>
#include <memory>
#include <string>
#include <thread>
#include <utility>

#include "core/parallel.h"
#include "core/strings.h"
#include "graph/trajectory.h"
#include "verify/build/batch_compile.h"

namespace regrapht::construct {
namespace {

// One step of a trajectory, with the problem it is verified against.
struct StepWork {
  Problem problem;
  std::shared_ptr<Trajectory> trajectory;
  size_t index;
  const std::string& code() const { return trajectory->steps[index].code; }
};

// Stable-sorts `items` by the include lines of their sources (verify::
// BatchUnitOf; a source that cannot share a call sorts first), so that
// sources that may share an nvcc call are next to each other.
void SortByIncludes(std::vector<StepWork>* items) {
  std::vector<std::pair<std::string, size_t>> keys;
  for (size_t i = 0; i < items->size(); ++i) {
    auto unit = verify::BatchUnitOf((*items)[i].code());
    keys.emplace_back(unit ? "+" + Join(unit->includes, "\n") : std::string(), i);
  }
  std::stable_sort(keys.begin(), keys.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<StepWork> sorted;
  sorted.reserve(items->size());
  for (const auto& [key, i] : keys) sorted.push_back(std::move((*items)[i]));
  *items = std::move(sorted);
}

// Every step of the readable trajectories under `roots`, in folder order.
Result<std::vector<StepWork>> CollectSteps(const std::vector<fs::path>& roots) {
  RG_ASSIGN_OR_RETURN(std::vector<fs::path> dirs, FindTrajectoryDirs(roots));
  std::vector<StepWork> work;
  for (const auto& d : dirs) {
    auto t = ReadTrajectoryDir(d);
    auto p = LoadProblem(d);
    if (!t.ok() || !p.ok()) continue;  // reported by the import itself
    auto shared = std::make_shared<Trajectory>(std::move(*t));
    for (size_t i = 0; i < shared->steps.size(); ++i) work.push_back({*p, shared, i});
  }
  return work;
}

}  // namespace

Result<PrebuildReport> PrebuildSteps(const std::vector<fs::path>& roots,
                                     const PrebuildOptions& options, HarnessStepVerifier* steps,
                                     Verifier* verifier) {
  RG_ASSIGN_OR_RETURN(std::vector<StepWork> work, CollectSteps(roots));
  PrebuildReport report;
  report.steps = work.size();
  report.precomputed = options.compile_only || !options.timing;
  const int jobs = options.jobs > 0
                       ? options.jobs
                       : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  report.jobs = jobs;
  // Compile checks go in two chunks per job, whose compiles share nvcc
  // invocations where that cannot change a verdict
  // (Verifier::CompileOnlyMany): larger chunks find more steps that may
  // share, two per job keep every job busy. Only sources with the same
  // include lines may share a call, so steps are ordered by theirs first
  // (verdicts are kept by step, not by position). The nvcc calls per chunk
  // size: docs/performance.md, "Compile checks".
  const size_t per_job = (work.size() + 2 * jobs - 1) / (2 * jobs);
  const size_t chunk = options.compile_only ? std::max<size_t>(8, per_job) : 1;
  if (chunk > 1) SortByIncludes(&work);
  ParallelFor((work.size() + chunk - 1) / chunk, jobs, [&](size_t c) {
    const size_t begin = c * chunk;
    if (chunk > 1) {
      std::vector<std::pair<const Trajectory*, size_t>> batch;
      for (size_t i = begin; i < std::min(work.size(), begin + chunk); ++i) {
        batch.emplace_back(work[i].trajectory.get(), work[i].index);
      }
      (void)steps->PrecomputeMany(batch);  // a step it could not do is checked by the import
      return;
    }
    const StepWork& w = work[begin];
    if (report.precomputed) {
      (void)steps->Precompute(*w.trajectory, w.index);
    } else {
      (void)verifier->Prepare(w.problem, w.code());
    }
  });
  return report;
}

}  // namespace regrapht::construct
