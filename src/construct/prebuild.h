// Work done before `graph import` verifies trajectory steps one at a time:
// every step is built (or, where nothing is timed, checked) in parallel, so
// that the import then verifies from the build cache and no compile
// disturbs a timing.
#pragma once

#include <cstddef>
#include <vector>

#include "construct/step_verifier.h"
#include "core/fs.h"
#include "regrapht/status.h"
#include "regrapht/verify.h"

namespace regrapht::construct {

struct PrebuildOptions {
  bool compile_only = false;  // the import's check is kCompile (else kFull)
  bool timing = true;         // the Verifier times candidates (its options().timing)
  int jobs = 0;               // steps built at once; 0: every core
};

struct PrebuildReport {
  size_t steps = 0;          // steps of the readable trajectories
  int jobs = 0;              // the jobs used
  bool precomputed = false;  // checked (records kept by `steps`), not only built
};

// Builds every step of the trajectories under `roots` (FindTrajectoryDirs;
// a folder whose trajectory or problem cannot be read is left to the import,
// which reports it). Compile checks and correctness-only checks (which may
// share the GPU) are done here by `steps` (Precompute, PrecomputeMany) and
// their records reused by the import; timed checks are only built here
// (Verifier::Prepare) and run one at a time by the import. A step it could
// not do is checked by the import. Errors: the roots cannot be listed.
Result<PrebuildReport> PrebuildSteps(const std::vector<fs::path>& roots,
                                     const PrebuildOptions& options, HarnessStepVerifier* steps,
                                     Verifier* verifier);

}  // namespace regrapht::construct
