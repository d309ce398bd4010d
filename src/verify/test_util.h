// Helpers shared by tests that need the source tree or a scratch cache.
#pragma once

#include <cstdlib>
#include <string>

#include "core/fs.h"
#include "regrapht/problem.h"

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

inline Problem LoadBundled(const std::string& name) {
  auto p = LoadProblem(SourceDir() / "problems" / name);
  if (!p.ok()) {
    std::fprintf(stderr, "%s\n", p.status().ToString().c_str());
    std::abort();
  }
  return *p;
}

}  // namespace regrapht::testing_util
