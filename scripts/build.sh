#!/usr/bin/env bash
# Configures and builds regrapht into build/ (or $REGRAPHT_BUILD_DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${REGRAPHT_BUILD_DIR:-build}
JOBS=${REGRAPHT_JOBS:-$(nproc)}
extra=()
[ -n "${REGRAPHT_WERROR:-}" ] && extra+=(-DREGRAPHT_WARNINGS_AS_ERRORS=ON)
# Extra CMake arguments, split on spaces (scripts/pack-device.sh builds without libclang).
# shellcheck disable=SC2206
[ -n "${REGRAPHT_CMAKE_ARGS:-}" ] && extra+=(${REGRAPHT_CMAKE_ARGS})
# Line tables only (-g1): backtraces and profilers keep file:line, and the
# build takes less CPU than with full -g (docs/performance.md). For a
# debugger's view of locals, configure your own build with CMAKE_BUILD_TYPE=Debug.
extra+=("-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG" "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG")
# ccache (outside the repo, keyed by each compile's inputs) when installed;
# REGRAPHT_CCACHE=0 builds without it. A missing cache is a full build.
if [ "${REGRAPHT_CCACHE:-1}" != 0 ] && command -v ccache >/dev/null 2>&1; then
  extra+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  # Paths below the checkout are hashed relative to it, so that clones in
  # different folders share hits.
  export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD} CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-1}
else
  extra+=(-UCMAKE_CXX_COMPILER_LAUNCHER -UCMAKE_C_COMPILER_LAUNCHER)
fi
if [ -f "$BUILD_DIR/CMakeCache.txt" ]; then
  cmake "$BUILD_DIR" "${extra[@]}" >/dev/null
else
  generator=()
  command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
  cmake -S . -B "$BUILD_DIR" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo "${extra[@]}"
fi
# REGRAPHT_BUILD_TARGETS: only these targets (space-separated; default: everything).
targets=()
for t in ${REGRAPHT_BUILD_TARGETS:-}; do targets+=(--target "$t"); done
cmake --build "$BUILD_DIR" -j "$JOBS" "${targets[@]}"
ln -sf src/cli/regrapht "$BUILD_DIR/regrapht"
echo "build: $BUILD_DIR/regrapht"
