#!/usr/bin/env bash
# The GPU check in one call: every gpu-labelled test, the bundled problems, the
# expert solutions of both suites (timed; ParEval in both forms) and every
# trajectory step of the training corpus (correctness), pipelined, with a
# per-stage timing table. docs/gpu-runs.md says what it writes and how to run it.
#
#   scripts/gpu-check.sh OUTDIR      # uses .devbin/ (scripts/pack-device.sh) when present, else build/
#
# The stages run side by side: compiles, reference builds and correctness-only
# runs share every core; only the timed loops take turns on the GPU (the
# verifier's GPU timing lock, verify/gpu_lock.h). Each stage keeps its records
# as it goes (bench rows per problem, trajectory records per chunk) and adds
# its row to OUTDIR/stages.md when it ends, so a call cut short still brings
# back complete records for what it finished.
#
# Knobs (environment):
#   REGRAPHT_GPU_CHECK_DEADLINE  seconds after which stages still running are stopped (SIGTERM: bench and
#                                graph import keep what they finished; 0: none, the default)
#   REGRAPHT_GPU_CHECK_JOBS      jobs of each stage (default: the number of cores)
#   REGRAPHT_GPU_CHECK_TIMING    seconds of each timed loop (default 0.3)
#   REGRAPHT_GPU_CHECK_STAGES    the stages to run (default: all of
#                                "gpu-tests problems cudaeval pareval-dropin pareval-kernel trajectories")
#   REGRAPHT_GPU_CHECK_FILTER    a command filtering the trajectory folder list (e.g. "head -2")
#   REGRAPHT_GPU_CHECK_SHARD     i/n: one shard of each suite
#   REGRAPHT_GPU_CHECK_CHUNK     trajectories per graph import (default 20)
# Without a GPU it runs everything up to the no-GPU verdicts (compiled only): a dry run, e.g.
#   REGRAPHT_GPU_CHECK_FILTER="head -2" REGRAPHT_GPU_CHECK_SHARD=1/24 scripts/gpu-check.sh /tmp/dry
set -uo pipefail
set -m  # every stage in its own process group, so that the deadline stops all of it
cd "$(dirname "$0")/.."
OUTDIR=${1:?usage: gpu-check.sh OUTDIR}
mkdir -p "$OUTDIR"
OUTDIR=$(cd "$OUTDIR" && pwd)
W="$OUTDIR/.stages"  # per-stage bookkeeping
rm -rf "$W" && mkdir -p "$W"

if [ -x .devbin/bin/regrapht ]; then
  BIN=.devbin/bin
  # Only the libraries this machine lacks (nvcc and g++ must keep loading their own).
  mkdir -p .devbin/missing
  for lib in .devbin/lib/*; do
    [ -e "$lib" ] || continue
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
RG="$PWD/$BIN/regrapht"
export PATH="/usr/local/cuda/bin:$PATH"
export REGRAPHT_SOURCE_DIR="$PWD" REGRAPHT_BINARY_DIR="${TMPDIR:-/tmp}/rg-gpu-check" REGRAPHT_CACHE_DIR="${TMPDIR:-/tmp}/rg-gpu-cache"
JOBS=${REGRAPHT_GPU_CHECK_JOBS:-$(nproc)}
TIMING=${REGRAPHT_GPU_CHECK_TIMING:-0.3}
SHARD=(${REGRAPHT_GPU_CHECK_SHARD:+--shard "$REGRAPHT_GPU_CHECK_SHARD"})
STAGES=${REGRAPHT_GPU_CHECK_STAGES:-gpu-tests problems cudaeval pareval-dropin pareval-kernel trajectories}
DEADLINE=${REGRAPHT_GPU_CHECK_DEADLINE:-0}
T0=$(date +%s.%N)
elapsed() { awk -v a="$T0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
say() { echo "[$(elapsed) s] $*" | tee -a "$OUTDIR/progress.txt"; }

# The commit the binaries were built from (pack-device.sh records it; a copy may have no .git).
commit=$( { [ "$BIN" = .devbin/bin ] && cat .devbin/commit.txt; } 2>/dev/null || git rev-parse HEAD 2>/dev/null || echo unknown)
{
  echo "date: $(date -u +%FT%TZ)"
  echo "commit: $commit"
  echo "checkout: $PWD (git: $(git rev-parse HEAD 2>/dev/null || echo none))"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader
  nvidia-smi | head -12
  nvcc --version | tail -2
  g++ --version | head -1
  lscpu | grep -E "Model name|^CPU\(s\)"
  echo "jobs per stage: $JOBS, timed loops: $TIMING s, stages: $STAGES"
  "$RG" version
} > "$OUTDIR/environment.txt" 2>&1
# A packed binary must read this checkout's data, not the build machine's.
data=$("$RG" version --json 2>/dev/null | sed -n 's/.*"data_dir": *"\([^"]*\)".*/\1/p')
if [ "$data" != "$PWD/data" ]; then
  say "warning: regrapht's data folder is '$data', not this checkout's: REGRAPHT_DATA_DIR set"
  export REGRAPHT_DATA_DIR="$PWD/data"
fi

# ---- the stages (each writes only under OUTDIR; its exit status is its own) ----------------

stage_gpu-tests() {
  # The GPU tests in shards (GoogleTest's own sharding): their compiles run in parallel.
  local shards=$(( JOBS >= 16 ? 4 : (JOBS >= 4 ? 2 : 1) )) pids=() rc=0
  for ((i = 0; i < shards; ++i)); do
    GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$i "$GPUTEST" > "$OUTDIR/gpu-tests.$i.log" 2>&1 &
    pids+=($!)
  done
  # 77: the test binary found no GPU and skipped everything (a dry run), not a failure.
  for p in "${pids[@]}"; do wait "$p"; case $? in 0|77) ;; *) rc=1 ;; esac; done
  cat "$OUTDIR"/gpu-tests.*.log > "$OUTDIR/gpu-tests.log"
  return $rc
}

stage_problems() {
  local pids=() rc=0
  for p in problems/*/; do
    local name=$(basename "$p")
    ( "$RG" verify --problem "$p" --candidate "$p/solution.cu" --timing-seconds "$TIMING" --json \
        > "$OUTDIR/problems/$name.json" 2> "$OUTDIR/problems/$name.log" ) &
    pids+=($!)
  done
  # 0 correct, 3 compiled only (no GPU); a failed expert solution (4) or an error (1) fails the stage.
  for p in "${pids[@]}"; do wait "$p"; case $? in 0|3) ;; *) rc=1 ;; esac; done
  return $rc
}

bench() {  # bench NAME SUITE [FLAGS...]: one timed bench of a suite's expert solutions
  local name=$1 suite=$2
  shift 2
  "$RG" bench --suite "$suite" --method reference --db "$OUTDIR/$name.sqlite" --jobs "$JOBS" --quiet \
    --timing-seconds "$TIMING" "${SHARD[@]}" "$@" > "$OUTDIR/$name.log" 2>&1
}
stage_cudaeval() { bench cudaeval suites/cudaeval; }
stage_pareval-dropin() { bench pareval-dropin suites/pareval --form dropin; }
stage_pareval-kernel() { bench pareval-kernel suites/pareval --form kernel; }

stage_trajectories() {
  # Correctness on the GPU (no timing), in chunks: each chunk's records are
  # written into its trajectory.json files and packed before the next starts.
  local dirs chunk=${REGRAPHT_GPU_CHECK_CHUNK:-20} rc=0
  mapfile -t dirs < <(ls -d data/trajectories/*/ | ${REGRAPHT_GPU_CHECK_FILTER:-cat})
  for ((i = 0; i < ${#dirs[@]}; i += chunk)); do
    "$RG" graph import "${dirs[@]:i:chunk}" -o "$W/graph-$i.json" --verify full --no-timing --arch sm_90 \
      --jobs "$JOBS" --write-records --skip-bad --json > "$OUTDIR/trajectories/chunk-$i.json" \
      2>> "$OUTDIR/trajectories.log" || rc=1
    echo "chunk $i: ${#dirs[@]} folders in all, rc=$rc" >> "$OUTDIR/trajectories.log"
    tar czf "$W/records.tgz" data/trajectories/*/trajectory.json && mv "$W/records.tgz" "$OUTDIR/trajectory-records.tgz"
  done
  return $rc
}

# ---- what each stage did, for its row ---------------------------------------------------------

# verdict counts of a bench database: "correct 40, compiled_only 8"
db_verdicts() {
  [ -f "$1" ] || { echo "no rows"; return; }
  "$RG" report --db "$1" --per-problem --format csv 2>/dev/null | python3 -c '
import csv, sys, collections
rows = list(csv.DictReader(sys.stdin))
c = collections.Counter(r.get("verdict", "?") for r in rows)
print("%d rows: " % len(rows) + ", ".join("%s %d" % kv for kv in sorted(c.items())))' 2>/dev/null || echo "see report"
}
summary() {
  case $1 in
    gpu-tests)
      grep -m1 -h "^SKIPPED: " "$OUTDIR"/gpu-tests.*.log 2>/dev/null && return
      cat "$OUTDIR"/gpu-tests.*.log 2>/dev/null | awk '
        /^\[  PASSED  \] [0-9]+ test/ { p += $4 } /^\[  SKIPPED \] [0-9]+ test/ { s += $4 }
        /^\[  FAILED  \] [0-9]+ test/ { f += $4 }
        END { printf "passed %d, skipped %d, failed %d", p, s, f }' ;;
    problems)
      python3 -c '
import json, sys, collections
c = collections.Counter()
for f in sys.argv[1:]:
    try:
        c[json.load(open(f)).get("verdict", "?")] += 1
    except Exception:
        c["no result"] += 1
print("%d problems: " % sum(c.values()) + ", ".join("%s %d" % kv for kv in sorted(c.items())))' \
        "$OUTDIR"/problems/*.json 2>/dev/null || echo "see problems/" ;;
    cudaeval|pareval-dropin|pareval-kernel) db_verdicts "$OUTDIR/$1.sqlite" ;;
    trajectories)
      python3 -c '
import json, sys
n = {}
for f in sys.argv[1:]:
    try:
        j = json.load(open(f))
    except Exception:
        continue
    for k, v in j.items():
        if isinstance(v, int) and not isinstance(v, bool): n[k] = n.get(k, 0) + v
print(", ".join("%s %d" % (k, v) for k, v in n.items() if k in ("trajectories", "imported", "failed", "cut", "examples_added")) or "see trajectories.log")' \
        "$OUTDIR"/trajectories/chunk-*.json 2>/dev/null || echo "see trajectories.log" ;;
  esac
}

# ---- the table ----------------------------------------------------------------------------------

write_table() {
  {
    echo "# gpu-check stages ($(date -u +%FT%TZ), commit ${commit:0:12}, $JOBS jobs per stage, timed loops $TIMING s)"
    echo
    echo "| stage | start (s) | end (s) | wall (s) | machine CPU (s) | exit | ended | result |"
    echo "|---|---|---|---|---|---|---|---|"
    [ -f "$OUTDIR/stages.tsv" ] && tail -n +2 "$OUTDIR/stages.tsv" | awk -F'\t' '{ printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7, $8 }'
    for s in "${!PID[@]}"; do echo "| $s | ${START[$s]} | | | | | running | |"; done
    echo
    local t=$(elapsed) cpu=$(awk -v a="$BUSY0" -v b="$(busy_s)" 'BEGIN { printf "%.0f", b - a }')
    echo "Total so far: $t s of wall time; the machine's CPUs were busy for $cpu s of the" \
      "$(awk -v t="$t" -v n="$(nproc)" 'BEGIN { printf "%.0f", t * n }') s its $(nproc) CPUs had" \
      "($(awk -v c="$cpu" -v t="$t" -v n="$(nproc)" 'BEGIN { printf "%.0f", (t > 0 ? 100 * c / (t * n) : 0) }')%)."
    echo "machine CPU: the machine's user + system CPU seconds while the stage ran (stages overlap, so rows add up to more than the total)."
  } > "$OUTDIR/stages.md.tmp" && mv "$OUTDIR/stages.md.tmp" "$OUTDIR/stages.md"
}

# The machine's busy CPU time so far, in seconds (user + nice + system + irq +
# softirq + steal of /proc/stat's "cpu" line). Per-process accounting cannot
# see the stages' sandboxed runs (bubblewrap's reaping hides their CPU time
# from wait4 and bash's `time`), so each row gives the machine's CPU time while
# the stage ran; on a machine that runs nothing else that is regrapht's.
busy_s() {
  awk -v hz="$(getconf CLK_TCK)" '$1 == "cpu" { printf "%.1f", ($2 + $3 + $4 + $7 + $8 + $9) / hz; exit }' /proc/stat
}
BUSY0=$(busy_s)
declare -A PID START STAGE_OF BUSY_AT
launch() {
  local name=$1
  mkdir -p "$OUTDIR/problems" "$OUTDIR/trajectories"
  START[$name]=$(elapsed)
  BUSY_AT[$name]=$(busy_s)
  ( "stage_$name" > "$W/out.$name" 2>&1; echo $? > "$W/rc.$name" ) &
  PID[$name]=$!
  STAGE_OF[$!]=$name
  say "started $name"
}
finish() {
  local name=$1 how=$2 rc=-1
  [ -f "$W/rc.$name" ] && rc=$(cat "$W/rc.$name")
  local cpu=$(awk -v a="${BUSY_AT[$name]}" -v b="$(busy_s)" 'BEGIN { printf "%.0f", b - a }')
  local end=$(elapsed)
  local wall=$(awk -v a="${START[$name]}" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
  [ -f "$OUTDIR/stages.tsv" ] || printf 'stage\tstart_s\tend_s\twall_s\tmachine_cpu_s\texit\tended\tresult\n' > "$OUTDIR/stages.tsv"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "${START[$name]}" "$end" "$wall" "$cpu" "$rc" "$how" \
    "$(summary "$name")" >> "$OUTDIR/stages.tsv"
  unset "PID[$name]"
  say "$name $how after $wall s (exit $rc): $(summary "$name")"
  write_table
}
reports() {  # the suites' reports, from whatever rows exist
  [ -f "$OUTDIR/cudaeval.sqlite" ] && "$RG" report --db "$OUTDIR/cudaeval.sqlite" > "$OUTDIR/cudaeval-report.md" 2>&1
  local dbs=()
  for f in pareval-dropin pareval-kernel; do [ -f "$OUTDIR/$f.sqlite" ] && dbs+=(--db "$OUTDIR/$f.sqlite"); done
  [ ${#dbs[@]} -gt 0 ] && "$RG" report "${dbs[@]}" > "$OUTDIR/pareval-report.md" 2>&1
  return 0
}

rm -f "$OUTDIR/stages.tsv" "$OUTDIR/progress.txt"
for s in $STAGES; do
  declare -F "stage_$s" >/dev/null || { echo "unknown stage '$s'" >&2; exit 2; }
  launch "$s"
done
write_table
stopped=0
if [ "$DEADLINE" -gt 0 ] 2>/dev/null; then
  ( sleep "$DEADLINE"; touch "$W/deadline"; for p in "${PID[@]}"; do kill -TERM -- "-$p" 2>/dev/null; done ) &
  WATCHDOG=$!
fi
while [ ${#PID[@]} -gt 0 ]; do
  wait -n -p done_pid "${PID[@]}"
  name=${STAGE_OF[$done_pid]:-}
  [ -n "$name" ] || continue
  how=finished
  [ -e "$W/deadline" ] && [ ! -f "$W/rc.$name" -o "$(cat "$W/rc.$name" 2>/dev/null)" != 0 ] && how="stopped at the deadline"
  finish "$name" "$how"
done
[ -n "${WATCHDOG:-}" ] && kill -- "-$WATCHDOG" 2>/dev/null
reports
write_table
say "done"
