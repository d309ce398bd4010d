#!/usr/bin/env bash
# Configures and builds regrapht into build/ (or $REGRAPHT_BUILD_DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${REGRAPHT_BUILD_DIR:-build}
JOBS=${REGRAPHT_JOBS:-$(nproc)}
extra=()
[ -n "${REGRAPHT_WERROR:-}" ] && extra+=(-DREGRAPHT_WARNINGS_AS_ERRORS=ON)
if [ -f "$BUILD_DIR/CMakeCache.txt" ]; then
  cmake "$BUILD_DIR" "${extra[@]}" >/dev/null
else
  generator=()
  command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
  cmake -S . -B "$BUILD_DIR" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo "${extra[@]}"
fi
cmake --build "$BUILD_DIR" -j "$JOBS"
ln -sf src/cli/regrapht "$BUILD_DIR/regrapht"
echo "build: $BUILD_DIR/regrapht"
