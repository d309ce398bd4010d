#!/usr/bin/env bash
# Does a CPU reference's timed median move when other regrapht jobs run beside
# it? Times the references of a slice of a suite (`regrapht verify
# --reference-only`, with no reference cached, so each is built and timed) one
# job at a time, then N at a time as regrapht runs them (one timed phase at a
# time under the machine's timing lock, on a CPU of its own, while the others
# compile and run their test cases on the other CPUs: verify/timing_cpus.h),
# then N at a time with the lock but not pinned (REGRAPHT_TIMING_CPU=off), and
# optionally without the lock either (each job its own lock folder: the timed
# phases overlap, as before the lock). docs/bench.md, "Reference
# timings under load".
#
#   scripts/reference-timing-bench.sh [OUTDIR]
#
# Knobs: REGRAPHT_REFBENCH_SUITE (default suites/cudaeval), _SHARD (i/n, default
# 1/10), _JOBS (N, default: the number of cores), _MODES (default "j1 jN
# jN-nopin"; also "jN-nolock"). Writes OUTDIR/reference-timing-bench.md (default
# /tmp/reference-timing-bench) and prints it.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-/tmp/reference-timing-bench}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
RG=${REGRAPHT_BIN:-$PWD/build/src/cli/regrapht}
[ -x .devbin/bin/regrapht ] && [ -z "${REGRAPHT_BIN:-}" ] && RG=$PWD/.devbin/bin/regrapht
SUITE=${REGRAPHT_REFBENCH_SUITE:-suites/cudaeval}
SHARD=${REGRAPHT_REFBENCH_SHARD:-1/10}
N=${REGRAPHT_REFBENCH_JOBS:-$(nproc)}
MODES=${REGRAPHT_REFBENCH_MODES:-j1 jN jN-nopin}
i=${SHARD%/*} n=${SHARD#*/}
mapfile -t problems < <(ls -d "$SUITE"/*/ | awk -v i="$i" -v n="$n" '(NR - 1) % n == i - 1')
[ ${#problems[@]} -gt 0 ] || { echo "no problems in $SUITE shard $SHARD" >&2; exit 2; }
# The shared build entries (driver runtime, headers) made once, on a problem
# outside the slice; each mode starts from a copy of them with no reference.
warm=$(ls -d "$SUITE"/*/ | awk -v i="$i" -v n="$n" '(NR - 1) % n != i - 1 { print; exit }')
rm -rf "$OUT/cache-warm"
REGRAPHT_GPU_LOCK_DIR="$OUT/locks-warm" "$RG" verify --problem "$warm" --reference-only --cache "$OUT/cache-warm" \
  > "$OUT/warm.log" 2>&1 || { cat "$OUT/warm.log"; echo "the warm-up on $warm failed" >&2; exit 1; }
rm -rf "$OUT/cache-warm/ref"

# one PROBLEM MODE: the reference's median (ms) on stdout, "-" if it failed.
one() {
  local p=$1 mode=$2 name
  name=$(basename "$p")
  local cache="$OUT/cache-$mode" locks="$OUT/locks-$mode"
  [ "$mode" = jN-nolock ] && locks="$OUT/locks-$mode/$name"  # a lock of its own: no exclusion
  local pin=auto
  [ "$mode" = j1 ] || [ "$mode" = jN ] || pin=off  # jN-nopin, jN-nolock: timed phases share the cores
  mkdir -p "$locks"
  REGRAPHT_TIMING_CPU=$pin REGRAPHT_GPU_LOCK_DIR=$locks "$RG" verify --problem "$p" --reference-only --json --cache "$cache" \
    > "$OUT/$mode/$name.json" 2> "$OUT/$mode/$name.log"
  python3 -c 'import json,sys; print("%.4f" % json.load(open(sys.argv[1]))["timing"]["median_ms"])' \
    "$OUT/$mode/$name.json" 2>/dev/null || echo "-"
}
export -f one
export RG OUT

declare -A WALL
for mode in $MODES; do
  rm -rf "$OUT/$mode" "$OUT/cache-$mode" "$OUT/locks-$mode" && mkdir -p "$OUT/$mode"
  cp -r "$OUT/cache-warm" "$OUT/cache-$mode"
  jobs=$N
  [ "$mode" = j1 ] && jobs=1
  s=$(date +%s.%N)
  printf '%s\n' "${problems[@]}" | xargs -P "$jobs" -I{} bash -c 'echo "$(basename {}) $(one {} '"$mode"')"' \
    > "$OUT/$mode.medians"
  WALL[$mode]=$(awk -v a="$s" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f", b - a }')
  rm -rf "$OUT/cache-$mode"
done

{
  echo "# Reference timings under load ($(date -u +%FT%TZ), $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p' | head -1))"
  echo
  echo "\`regrapht verify --reference-only\` of $SUITE shard $SHARD (${#problems[@]} problems), none cached" \
       "(the build cache warmed on $(basename "$warm")); j1: one at a time; jN: $N at a time, timed phases under the machine's timing lock on a CPU of their own;" \
       "jN-nopin: the same, not pinned (REGRAPHT_TIMING_CPU=off); jN-nolock: $N at a time, each with its own lock, not pinned (timed phases overlap). Commit $(git rev-parse --short HEAD 2>/dev/null || cat .devbin/commit.txt 2>/dev/null || echo unknown)."
  echo
  printf '| problem |'; for m in $MODES; do printf ' %s median (ms) |' "$m"; done
  for m in $MODES; do [ "$m" = j1 ] || printf ' %s / j1 |' "$m"; done; echo
  printf '|---|'; for m in $MODES; do printf -- '---|'; done; for m in $MODES; do [ "$m" = j1 ] || printf -- '---|'; done; echo
  python3 - "$OUT" $MODES <<'EOF'
import statistics, sys
out, modes = sys.argv[1], sys.argv[2:]
med = {}
for m in modes:
    for line in open(f"{out}/{m}.medians"):
        name, v = line.split()
        med.setdefault(name, {})[m] = None if v == "-" else float(v)
ratios = {m: [] for m in modes if m != "j1"}
for name in sorted(med):
    row = [name] + ["-" if med[name].get(m) is None else "%.4f" % med[name][m] for m in modes]
    for m in ratios:
        a, b = med[name].get("j1"), med[name].get(m)
        if a and b:
            ratios[m].append(b / a)
            row.append("%.3f" % (b / a))
        else:
            row.append("-")
    print("| " + " | ".join(row) + " |")
print()
for m, r in ratios.items():
    if r:
        print(f"{m} / j1 over {len(r)} problems: median {statistics.median(r):.3f}, "
              f"min {min(r):.3f}, max {max(r):.3f}")
EOF
  echo
  for m in $MODES; do echo "wall time $m: ${WALL[$m]} s"; done
} > "$OUT/reference-timing-bench.md"
cat "$OUT/reference-timing-bench.md"
