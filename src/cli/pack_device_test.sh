#!/bin/sh
# A binary packed by scripts/pack-device.sh runs from any copy of the checkout:
# packed into a copy made in a temporary folder (its data, scripts and one
# problem; no .git, no build folder), it reports that copy's data/ as its
# data folder, not the source tree it was built from, and the copy's
# scripts/gpu-check.sh runs a stage there end to end (on a machine without a
# GPU: the no-GPU verdict), writing the per-stage table.
#   pack_device_test.sh BUILD_DIR SOURCE_DIR
set -eu
BUILD=$(cd "$1" && pwd)
SRC=$(cd "$2" && pwd)
fail() { echo "FAIL: $*"; exit 1; }
command -v bwrap >/dev/null 2>&1 || { echo "SKIP: no bubblewrap to pack"; exit 77; }
T=$(mktemp -d)
chmod 755 "$T"  # the sandboxed runs (as nobody) read the cache below it, like /tmp
trap 'rm -rf "$T"' EXIT
C=$T/copy
mkdir -p "$C/data" "$C/problems"
cp -r "$SRC/scripts" "$C/"
cp "$SRC/data/taxonomy.json" "$SRC/data/models.json" "$C/data/"
cp -r "$SRC/problems/saxpy" "$C/problems/"
REGRAPHT_BUILD_DIR=$BUILD "$C/scripts/pack-device.sh" >"$T/pack.log" 2>&1 || { cat "$T/pack.log"; fail "pack-device.sh exited $?"; }
for f in bin/regrapht bin/verify_gpu_test bin/bwrap commit.txt; do [ -e "$C/.devbin/$f" ] || fail "not packed: $f"; done
json() { python3 -c "import json,sys; j=json.load(open(sys.argv[1])); sys.exit(0 if ($2) else 1)" "$1"; }

cd "$T"
env -u REGRAPHT_DATA_DIR "$C/.devbin/bin/regrapht" version --json >v.json || fail "packed regrapht version exited $?"
json v.json "j['data_dir'] == '$C/data'" || fail "the packed binary's data folder is not the copy's: $(cat v.json)"

# The copy's GPU check, one stage (the bundled problems: saxpy), from another folder.
if ! command -v nvcc >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "SKIP: no nvcc for the gpu-check stage"; exit 77
fi
env -u REGRAPHT_DATA_DIR REGRAPHT_GPU_CHECK_STAGES=problems REGRAPHT_GPU_CHECK_JOBS=2 TMPDIR="$T" \
  "$C/scripts/gpu-check.sh" "$T/out" >"$T/check.log" 2>&1 || { cat "$T/check.log"; fail "gpu-check.sh exited $?"; }
grep -q "^| problems | " "$T/out/stages.md" || fail "no problems row in stages.md: $(cat "$T/out/stages.md")"
grep -q "| finished | 1 problems: " "$T/out/stages.md" ||
  fail "the problems stage did not finish: $(cat "$T/out/stages.md" "$T/out/problems/saxpy.log" "$T/check.log")"
grep -q "data_dir\|^data " "$T/out/environment.txt" || fail "environment.txt has no data line"
grep -q "warning: regrapht's data folder" "$T/out/progress.txt" && fail "gpu-check found the wrong data folder: $(cat "$T/out/progress.txt")"
python3 -c "import json,sys; j=json.load(open(sys.argv[1])); sys.exit(0 if j['verdict'] in ('correct','compiled_only') else 1)" \
  "$T/out/problems/saxpy.json" || fail "saxpy: $(cat "$T/out/problems/saxpy.json" "$T/out/problems/saxpy.log")"
echo "PASS"
