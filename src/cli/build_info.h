// What this binary was built from, for reports (optimize's "run", bench's
// runs). The version is the CMake project's; the commit is read at build
// time (cmake/BuildInfo.cmake).
#pragma once

namespace regrapht::cli {

// "0.1.0".
inline constexpr const char* kBuildVersion = REGRAPHT_VERSION;
// The git commit of the source tree ("3d5b51d0a1b2", with "-dirty" when
// tracked files had uncommitted changes), or "unknown" outside a checkout.
const char* BuildCommit();

}  // namespace regrapht::cli
