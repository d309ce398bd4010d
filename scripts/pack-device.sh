#!/usr/bin/env bash
# Packs the built regrapht and its GPU test into .devbin/ (git-ignored) for a
# GPU machine that has the CUDA toolkit but not our build dependencies:
# stripped binaries plus the shared libraries they need, and the commit they
# were built from. Copy the checkout with .devbin/ anywhere and run
# scripts/gpu-check.sh there: a packed binary reads the data/ of the checkout
# it sits in (<checkout>/.devbin/bin/regrapht), never the build machine's.
#
#   scripts/pack-device.sh [DEVBIN]    # default: .devbin of this checkout
set -euo pipefail
cd "$(dirname "$0")/.."
# A lent GPU machine takes at most 64 MiB of carried files. The rules' first step links libclang and
# libLLVM (about 190 MB with their libraries) and the GPU check never uses it, so by default the
# pack comes from build-device/, a build without libclang (ccache makes it mostly cache hits);
# REGRAPHT_BUILD_DIR=DIR packs that build instead.
if [ -n "${REGRAPHT_BUILD_DIR:-}" ]; then
  BUILD_DIR=$REGRAPHT_BUILD_DIR
else
  BUILD_DIR=build-device
  REGRAPHT_BUILD_DIR=$BUILD_DIR REGRAPHT_CMAKE_ARGS="-DREGRAPHT_WITH_LIBCLANG=OFF" \
    REGRAPHT_BUILD_TARGETS="regrapht verify_gpu_test" scripts/build.sh >&2
fi
OUT=${1:-.devbin}
rm -rf "$OUT" && mkdir -p "$OUT/bin" "$OUT/lib"
strip -o "$OUT/bin/regrapht" "$BUILD_DIR/src/cli/regrapht"
strip -o "$OUT/bin/verify_gpu_test" "$BUILD_DIR/src/verify/verify_gpu_test"
# Candidates only run sandboxed (docs/trust.md): bring bubblewrap along in
# case the GPU machine has none (gpu-check.sh points REGRAPHT_BWRAP at it).
cp "$(command -v bwrap)" "$OUT/bin/bwrap"
# Every shared library the binaries need except the C/C++ runtime; gpu-check.sh
# puts on LD_LIBRARY_PATH only those the GPU machine lacks, so that its own
# compilers never load ours.
for bin in "$OUT"/bin/*; do
  ldd "$bin" | awk '$3 ~ /^\// {print $1, $3}'
done | sort -u | while read -r name path; do
  case "$name" in libc.so*|libm.so*|libstdc++.so*|libgcc_s.so*|libdl.so*|libpthread.so*|librt.so*|libresolv.so*) continue ;; esac
  cp -L "$path" "$OUT/lib/"
done
# The commit (and whether the tree had changes), for a copy without .git.
# Packed from a copy without .git: the commit of the build's own source folder.
src=.
git rev-parse HEAD >/dev/null 2>&1 || src=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$BUILD_DIR/CMakeCache.txt" 2>/dev/null)
{ git -C "${src:-.}" rev-parse HEAD 2>/dev/null || echo unknown; } | tr -d '\n' > "$OUT/commit.txt"
[ -z "$(git -C "${src:-.}" status --porcelain --untracked-files=no 2>/dev/null)" ] || printf ' (with uncommitted changes)' >> "$OUT/commit.txt"
echo >> "$OUT/commit.txt"
du -sh "$OUT"
kib=$(du -sk "$OUT" | cut -f1)
if [ "$kib" -gt $((60 * 1024)) ]; then
  echo "pack-device: $OUT is $((kib / 1024)) MiB, more than a lent GPU machine takes (64 MiB in all):" \
    "pack a build without libclang (leave REGRAPHT_BUILD_DIR unset)" >&2
fi
