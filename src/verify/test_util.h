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

// A cache folder inside the build tree: repeated test runs reuse compiled
// objects, a clean build starts empty.
inline fs::path TestCacheDir() {
  const char* b = std::getenv("REGRAPHT_BINARY_DIR");
  return (b ? fs::path(b) : fs::temp_directory_path()) / "test-cache";
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
