#!/usr/bin/env bash
# How many candidates per minute the checking pipeline gets through, one job
# against all cores: `regrapht bench --method reference` over a slice of a
# suite's expert solutions, each mode from a fresh build cache (the shared
# entries, the precompiled headers, the driver runtime and the emulator's
# checker, built first on one other problem, as in any run after the first).
#
#   scripts/pipeline-bench.sh [OUTDIR]
#
# Modes (REGRAPHT_PIPELINE_BENCH_MODES, default "compile emulate timed"):
#   compile   compile only (what a machine without a GPU checks of a candidate by default)
#   emulate   correctness in the CPU emulator (--emulate: test cases and the timing-size input)
#   timed     correctness and timing on the GPU (timed loops take turns: the GPU lock); needs a GPU,
#             skipped and said so without one
# Knobs: REGRAPHT_PIPELINE_BENCH_SUITE (default suites/pareval), _SHARD (the slice, default 1/10),
# _FORM (dropin or kernel, default kernel), _JOBS (the parallel setting, default all cores),
# _TIMING (timed-loop seconds, default 0.3). Writes OUTDIR/pipeline-bench.md (default /tmp/pipeline-bench).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-/tmp/pipeline-bench}
mkdir -p "$OUT"
RG=${REGRAPHT_BIN:-$PWD/build/src/cli/regrapht}
[ -x .devbin/bin/regrapht ] && [ -z "${REGRAPHT_BIN:-}" ] && RG=$PWD/.devbin/bin/regrapht
SUITE=${REGRAPHT_PIPELINE_BENCH_SUITE:-suites/pareval}
SHARD=${REGRAPHT_PIPELINE_BENCH_SHARD:-1/10}
FORM=${REGRAPHT_PIPELINE_BENCH_FORM:-kernel}
MODES=${REGRAPHT_PIPELINE_BENCH_MODES:-compile emulate timed}
PAR=${REGRAPHT_PIPELINE_BENCH_JOBS:-$(nproc)}
TIMING=${REGRAPHT_PIPELINE_BENCH_TIMING:-0.3}
export PATH="/usr/local/cuda/bin:$PATH"
have_gpu() { nvidia-smi -L >/dev/null 2>&1; }

# The warm-up problem: the first of the suite not in the slice.
i=${SHARD%/*} n=${SHARD#*/}
warm=$(ls -d "$SUITE"/*/ | awk -v i="$i" -v n="$n" '(NR - 1) % n != i - 1 { print; exit }')

flags() {
  case $1 in
    compile) echo "--no-timing" ;;
    emulate) echo "--emulate" ;;
    timed) echo "--timing-seconds $TIMING" ;;
  esac
}

{
  echo "# Pipeline throughput ($(date -u +%FT%TZ), $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p' | head -1))"
  echo
  echo "\`regrapht bench --suite $SUITE --method reference --form $FORM --shard $SHARD\`, commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)."
  echo
  echo "| mode | jobs | candidates | wall (s) | candidates per minute | verdicts |"
  echo "|---|---|---|---|---|---|"
} > "$OUT/pipeline-bench.md"

for mode in $MODES; do
  if [ "$mode" = timed ] && ! have_gpu; then
    echo "| timed | - | - | - | not measured: no GPU here | - |" >> "$OUT/pipeline-bench.md"
    continue
  fi
  for jobs in 1 "$PAR"; do
    tag=$mode-j$jobs
    cache=$OUT/cache-$tag
    rm -rf "$cache" "$OUT/$tag.sqlite" "$OUT/warm-$tag.sqlite"
    # Warm the shared cache entries on a problem outside the slice.
    mkdir -p "$OUT/warm-suite-$tag"
    cp "$SUITE/suite.json" "$OUT/warm-suite-$tag/" 2>/dev/null
    cp -r "$warm" "$OUT/warm-suite-$tag/"
    REGRAPHT_CACHE_DIR=$cache "$RG" bench --suite "$OUT/warm-suite-$tag" --method reference --form "$FORM" \
      --db "$OUT/warm-$tag.sqlite" --quiet $(flags "$mode") > "$OUT/warm-$tag.log" 2>&1
    s=$(date +%s.%N)
    REGRAPHT_CACHE_DIR=$cache "$RG" bench --suite "$SUITE" --shard "$SHARD" --method reference --form "$FORM" \
      --jobs "$jobs" --db "$OUT/$tag.sqlite" --quiet $(flags "$mode") > "$OUT/$tag.log" 2>&1
    e=$(date +%s.%N)
    verdicts=$("$RG" report --db "$OUT/$tag.sqlite" --per-problem --format csv 2>/dev/null | python3 -c '
import csv, sys, collections
rows = list(csv.DictReader(sys.stdin))
print(len(rows), "; ".join("%s %d" % kv for kv in sorted(collections.Counter(r.get("verdict", "?") for r in rows).items())))')
    count=${verdicts%% *}
    awk -v m="$mode" -v j="$jobs" -v c="$count" -v s="$s" -v e="$e" -v v="${verdicts#* }" 'BEGIN {
      w = e - s; printf "| %s | %d | %d | %.1f | %.2f | %s |\n", m, j, c, w, (w > 0 ? c * 60 / w : 0), v }' \
      >> "$OUT/pipeline-bench.md"
    rm -rf "$cache" "$OUT/warm-suite-$tag"
  done
done
cat "$OUT/pipeline-bench.md"
