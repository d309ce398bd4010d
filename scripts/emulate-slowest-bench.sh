#!/usr/bin/env bash
# The emulated check of ParEval's slowest expert solutions, as a user runs it
# (`regrapht verify --emulate`: test cases, edge cases and the timing-size
# input), one at a time: wall seconds (compile included), the run's own
# seconds and the verdict per problem. docs/emulator.md quotes its output.
#
#   scripts/emulate-slowest-bench.sh [REGRAPHT] [OUT.tsv]
#
# REGRAPHT: the binary to measure (default build/regrapht), so that two
# builds can be compared back to back on the same machine. The compile
# cache is warmed by a first pass whose times are not reported.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BIN="${1:-$ROOT/build/regrapht}"
OUT="${2:-/dev/stdout}"
ROWS=(
  "42_sort_sorted_ranks kernel"
  "44_sort_sort_non-zero_elements kernel"
  "41_sort_k-th_smallest_element kernel"
  "40_sort_sort_an_array_of_complex_numbers_by_magnitude kernel"
  "45_sparse_la_sparse_solve dropin"
  "01_dense_la_solve dropin"
)
check() {  # problem form -> "wall_s run_s verdict"
  local dir="$ROOT/suites/pareval/$1" form="$2" src t0 t1 json
  src="$dir/solution.cu"
  [ "$form" = kernel ] && src="$dir/kernel.cu"
  t0=$(date +%s.%N)
  json=$("$BIN" verify --problem "$dir" --candidate "$src" --form "$form" --emulate --json 2>/dev/null || true)
  t1=$(date +%s.%N)
  python3 - "$t0" "$t1" "$json" <<'PY'
import json, sys
t0, t1, text = float(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
try:
    r = json.loads(text)
except ValueError:
    r = {}
print(f"{t1 - t0:.1f}\t{r.get('time_run_ms', 0) / 1000:.1f}\t{r.get('verdict', 'no result')}")
PY
}
for row in "${ROWS[@]}"; do check $row > /dev/null; done  # builds cached
{
  printf 'problem\tform\twall_s\trun_s\tverdict\n'
  for row in "${ROWS[@]}"; do
    set -- $row
    printf '%s\t%s\t%s\n' "$1" "$2" "$(check "$1" "$2")"
  done
} > "$OUT"
