#!/usr/bin/env bash
# Builds and runs every test. Tests that need a GPU (label gpu) or a real
# model (label model) report "Skipped" when those are missing; nothing is
# silently dropped. Exits non-zero if any test fails.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${REGRAPHT_BUILD_DIR:-build}
scripts/build.sh
cd "$BUILD_DIR"
# One job more than there are cores: the tests that mostly wait (fake servers,
# daemons) overlap with the CPU-bound gates instead of holding a core's slot
# (their COST starts them early; tests/CMakeLists.txt).
ctest --output-on-failure -j "${REGRAPHT_TEST_JOBS:-$(( $(nproc) + 1 ))}" "$@"
