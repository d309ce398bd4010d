#!/usr/bin/env bash
# The GPU check: on a machine with an NVIDIA GPU, runs every gpu-labelled test,
# the expert solutions of the benchmark suites (timed; ParEval in both forms), and every trajectory
# step of the training corpus (correctness), and writes logs, the results
# database and the trajectories' verification records to OUTDIR.
#
#   scripts/gpu-check.sh OUTDIR            # uses .devbin/ (pack-device.sh) or build/
# Knobs (environment): REGRAPHT_GPU_CHECK_DEADLINE (s), _CHUNK (trajectories per import),
# _FILTER (a command filtering the trajectory folder list, e.g. "head -2"), _SHARD (i/n of the
# suite), _TIMING (timed-loop seconds). A dry run without a GPU exercises everything up to
# the no-GPU verdicts: REGRAPHT_GPU_CHECK_FILTER="head -2" REGRAPHT_GPU_CHECK_SHARD=1/24 ...
set -uo pipefail
cd "$(dirname "$0")/.."
OUTDIR=${1:?usage: gpu-check.sh OUTDIR}
mkdir -p "$OUTDIR"
if [ -x .devbin/bin/regrapht ]; then
  BIN=.devbin/bin
  # Only the libraries this machine lacks (nvcc and g++ must keep loading their own).
  mkdir -p .devbin/missing
  for lib in .devbin/lib/*; do
    name=$(basename "$lib")
    ldconfig -p | grep -q "^[[:space:]]*$name " || cp "$lib" .devbin/missing/
  done
  echo "libraries taken from .devbin: $(ls .devbin/missing | tr '\n' ' ')"
  export LD_LIBRARY_PATH="$PWD/.devbin/missing${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  GPUTEST=.devbin/bin/verify_gpu_test
  if ! command -v bwrap >/dev/null 2>&1 && [ -x .devbin/bin/bwrap ]; then
    export REGRAPHT_BWRAP="$PWD/.devbin/bin/bwrap"
    echo "bubblewrap taken from .devbin"
  fi
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
  nvidia-smi | head -12
  nvcc --version | tail -2
  g++ --version | head -1
  lscpu | grep -E "Model name|^CPU\(s\)"
  "$BIN/regrapht" version
} > "$OUTDIR/environment.txt" 2>&1
t0=$(date +%s)
step() { echo "$1 ($(( $(date +%s) - t0 )) s)" | tee -a "$OUTDIR/progress.txt"; }
deadline=${REGRAPHT_GPU_CHECK_DEADLINE:-0}   # seconds; 0: none. Later stages are skipped past it.
late() { [ "$deadline" -gt 0 ] && [ $(( $(date +%s) - t0 )) -ge "$deadline" ]; }
step "== gpu tests (in the background) and bundled problems"
( "$GPUTEST" > "$OUTDIR/gpu-tests.log" 2>&1; echo "rc=$?" >> "$OUTDIR/gpu-tests.log" ) &
gpu_tests=$!
for p in problems/*/; do
  "$BIN/regrapht" verify --problem "$p" --candidate "$p/solution.cu" --timing-seconds 0.5 >> "$OUTDIR/problems.log" 2>&1
  echo "rc=$? $p" >> "$OUTDIR/problems.log"
done
step "problems done"
wait $gpu_tests
step "gpu tests done: $(tail -1 "$OUTDIR/gpu-tests.log")"
step "== suite expert solutions (timed)"
"$BIN/regrapht" bench --suite suites/cudaeval --method reference --db "$OUTDIR/cudaeval-reference.sqlite" \
  --jobs "$JOBS" --quiet --timing-seconds "${REGRAPHT_GPU_CHECK_TIMING:-0.3}" \
  ${REGRAPHT_GPU_CHECK_SHARD:+--shard "$REGRAPHT_GPU_CHECK_SHARD"} > "$OUTDIR/suite.log" 2>&1
step "suite rc=$?"
"$BIN/regrapht" report --db "$OUTDIR/cudaeval-reference.sqlite" > "$OUTDIR/suite-report.md" 2>&1
# ParEval's 60 problems, both forms: the drop-in call (transfers included) and the kernel alone.
for form in dropin kernel; do
  if late; then step "deadline: pareval $form not run"; continue; fi
  step "== pareval expert solutions, $form form (timed)"
  "$BIN/regrapht" bench --suite suites/pareval --method reference --form "$form" \
    --db "$OUTDIR/pareval-reference.sqlite" --jobs "$JOBS" --quiet --timing-seconds "${REGRAPHT_GPU_CHECK_TIMING:-0.3}" \
    ${REGRAPHT_GPU_CHECK_SHARD:+--shard "$REGRAPHT_GPU_CHECK_SHARD"} >> "$OUTDIR/pareval.log" 2>&1
  step "pareval $form rc=$?"
done
"$BIN/regrapht" report --db "$OUTDIR/pareval-reference.sqlite" > "$OUTDIR/pareval-report.md" 2>&1
# Trajectory steps: correctness on the GPU (no timing: it would not fit the session), in
# chunks so that a timeout still brings back the records of the finished chunks.
step "== trajectory steps (correctness, parallel)"
mapfile -t dirs < <(ls -d data/trajectories/*/ | ${REGRAPHT_GPU_CHECK_FILTER:-cat})
chunk=${REGRAPHT_GPU_CHECK_CHUNK:-20}
for ((i = 0; i < ${#dirs[@]}; i += chunk)); do
  if late; then step "deadline: trajectories from $i on not checked"; break; fi
  "$BIN/regrapht" graph import "${dirs[@]:i:chunk}" -o "${TMPDIR:-/tmp}/graph-verified-$i.json" --verify full --no-timing \
    --arch sm_90 --jobs "$JOBS" --write-records --skip-bad >> "$OUTDIR/trajectories.log" 2>&1
  step "trajectories $i.. rc=$?"
  tar czf "$OUTDIR/trajectory-records.tgz" data/trajectories/*/trajectory.json
done
step "done"
