// Helpers shared by tests that need the source tree or a scratch cache.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/fs.h"
#include "regrapht/problem.h"
#include "verify/spec/timing_sizes.h"

namespace regrapht::testing_util {

inline fs::path SourceDir() {
  const char* d = std::getenv("REGRAPHT_SOURCE_DIR");
  return d ? fs::path(d) : fs::current_path();
}

// The tests' harness cache: `test-cache` in the user's regrapht cache (outside
// the repo, like the content gates' builds), so a fresh clone's test run
// reuses what an earlier run compiled; entries are content-addressed (source,
// flags, toolchain), never stale. REGRAPHT_TEST_CACHE_DIR overrides (an empty
// folder there is a cold run).
inline fs::path TestCacheDir() {
  if (const char* d = std::getenv("REGRAPHT_TEST_CACHE_DIR"); d && *d) return fs::path(d);
  return CacheDir() / "test-cache";
}

// A bundled problem (problems/NAME) with its timing input fitted to at most
// 128 MiB for one copy of all its arguments (verify/spec/timing_sizes.h): the
// calibrated sizes (1 GiB for saxpy's x and y, docs/bench.md) are for timing
// on a GPU; the unit tests check the harness, at about the sizes the problems
// had before calibration (saxpy n=2^24, sum_of_squares n=2^25). The content
// gates and scripts/gpu-check.sh use the specs as written.
inline Problem LoadBundled(const std::string& name) {
  auto p = LoadProblem(SourceDir() / "problems" / name);
  auto fit = p.ok() ? verify::FitTimingInput(*p, int64_t{128} << 20)
                    : Result<verify::FittedTiming>(p.status());
  if (!fit.ok()) {
    std::fprintf(stderr, "%s\n", fit.status().ToString().c_str());
    std::abort();
  }
  return fit->problem;
}

}  // namespace regrapht::testing_util
