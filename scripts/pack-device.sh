#!/usr/bin/env bash
# Packs the built regrapht and its GPU test into .devbin/ (git-ignored) for a
# GPU machine that has the CUDA toolkit but not our build dependencies:
# stripped binaries plus the two shared libraries Ubuntu/other distros may
# lack (spdlog, fmt). Run scripts/gpu-check.sh there.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${REGRAPHT_BUILD_DIR:-build}
rm -rf .devbin && mkdir -p .devbin/bin .devbin/lib
strip -o .devbin/bin/regrapht "$BUILD_DIR/src/cli/regrapht"
strip -o .devbin/bin/verify_gpu_test "$BUILD_DIR/src/verify/verify_gpu_test"
for lib in libspdlog.so.1.10 libfmt.so.9; do
  src=$(ldconfig -p | awk -v l="$lib" '$1 == l {print $NF; exit}')
  [ -n "$src" ] && cp -L "$src" .devbin/lib/
done
du -sh .devbin
