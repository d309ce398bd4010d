#!/usr/bin/env bash
# Builds and runs every test. Tests that need a GPU (label gpu) or a real
# model (label model) report "Skipped" when those are missing; nothing is
# silently dropped. Exits non-zero if any test fails.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${REGRAPHT_BUILD_DIR:-build}
scripts/build.sh
cd "$BUILD_DIR"
ctest --output-on-failure -j "${REGRAPHT_TEST_JOBS:-2}" "$@"
