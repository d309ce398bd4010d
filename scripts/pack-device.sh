#!/usr/bin/env bash
# Packs the built regrapht and its GPU test into .devbin/ (git-ignored) for a
# GPU machine that has the CUDA toolkit but not our build dependencies:
# stripped binaries plus the shared libraries they need. Run scripts/gpu-check.sh there.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${REGRAPHT_BUILD_DIR:-build}
rm -rf .devbin && mkdir -p .devbin/bin .devbin/lib
strip -o .devbin/bin/regrapht "$BUILD_DIR/src/cli/regrapht"
strip -o .devbin/bin/verify_gpu_test "$BUILD_DIR/src/verify/verify_gpu_test"
# Candidates only run sandboxed (docs/trust.md): bring bubblewrap along in
# case the GPU machine has none (gpu-check.sh points REGRAPHT_BWRAP at it).
cp "$(command -v bwrap)" .devbin/bin/bwrap
# Every shared library the binaries need except the C/C++ runtime; gpu-check.sh
# puts on LD_LIBRARY_PATH only those the GPU machine lacks, so that its own
# compilers never load ours.
for bin in .devbin/bin/*; do
  ldd "$bin" | awk '$3 ~ /^\// {print $1, $3}'
done | sort -u | while read -r name path; do
  case "$name" in libc.so*|libm.so*|libstdc++.so*|libgcc_s.so*|libdl.so*|libpthread.so*|librt.so*|libresolv.so*) continue ;; esac
  cp -L "$path" .devbin/lib/
done
du -sh .devbin
