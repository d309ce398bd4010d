#!/usr/bin/env bash
# The GPU check: on a machine with an NVIDIA GPU, runs every gpu-labelled test,
# the expert solutions of the benchmark suite (timed), and every trajectory
# step of the training corpus (correctness), and writes logs, the results
# database and the trajectories' verification records to OUTDIR.
#
#   scripts/gpu-check.sh OUTDIR            # uses .devbin/ (pack-device.sh) or build/
set -uo pipefail
cd "$(dirname "$0")/.."
OUTDIR=${1:?usage: gpu-check.sh OUTDIR}
mkdir -p "$OUTDIR"
if [ -x .devbin/bin/regrapht ]; then
  BIN=.devbin/bin; export LD_LIBRARY_PATH="$PWD/.devbin/lib:${LD_LIBRARY_PATH:-}"
  GPUTEST=.devbin/bin/verify_gpu_test
else
  BIN=build/src/cli; GPUTEST=build/src/verify/verify_gpu_test
fi
export PATH="/usr/local/cuda/bin:$PATH"
export REGRAPHT_SOURCE_DIR="$PWD" REGRAPHT_BINARY_DIR="${TMPDIR:-/tmp}/rg-gpu-check" REGRAPHT_CACHE_DIR="${TMPDIR:-/tmp}/rg-gpu-cache"
JOBS=$(nproc)
{
  echo "date: $(date -u +%FT%TZ)"
  echo "commit: $(git rev-parse HEAD 2>/dev/null || echo unknown)"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader
  nvcc --version | tail -2
  g++ --version | head -1
  lscpu | grep -E "Model name|^CPU\(s\)"
  "$BIN/regrapht" version
} > "$OUTDIR/environment.txt" 2>&1
t0=$(date +%s)
echo "== gpu tests" | tee "$OUTDIR/progress.txt"
"$GPUTEST" > "$OUTDIR/gpu-tests.log" 2>&1; echo "gpu tests rc=$? ($(( $(date +%s) - t0 )) s)" | tee -a "$OUTDIR/progress.txt"
echo "== suite expert solutions (timed)" | tee -a "$OUTDIR/progress.txt"
"$BIN/regrapht" bench --suite suites/cudaeval --method reference --db "$OUTDIR/cudaeval-reference.sqlite" \
  --jobs "$JOBS" --quiet ${REGRAPHT_BENCH_FLAGS:-} > "$OUTDIR/suite.log" 2>&1
echo "suite rc=$? ($(( $(date +%s) - t0 )) s)" | tee -a "$OUTDIR/progress.txt"
"$BIN/regrapht" report --db "$OUTDIR/cudaeval-reference.sqlite" > "$OUTDIR/suite-report.md" 2>&1
echo "== bundled problems" | tee -a "$OUTDIR/progress.txt"
for p in problems/*/; do
  "$BIN/regrapht" verify --problem "$p" --candidate "$p/solution.cu" >> "$OUTDIR/problems.log" 2>&1
done
echo "problems done ($(( $(date +%s) - t0 )) s)" | tee -a "$OUTDIR/progress.txt"
echo "== trajectory steps (correctness, parallel)" | tee -a "$OUTDIR/progress.txt"
"$BIN/regrapht" graph import data/trajectories --out "$OUTDIR/graph-verified.json" --verify full --no-timing \
  --arch sm_90 --jobs "$JOBS" --write-records --skip-bad > "$OUTDIR/trajectories.log" 2>&1
echo "trajectories rc=$? ($(( $(date +%s) - t0 )) s)" | tee -a "$OUTDIR/progress.txt"
tar czf "$OUTDIR/trajectory-records.tgz" data/trajectories/*/trajectory.json
echo "done in $(( $(date +%s) - t0 )) s" | tee -a "$OUTDIR/progress.txt"
