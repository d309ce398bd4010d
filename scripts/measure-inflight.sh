#!/bin/sh
# Requests per second through `regrapht bench` against a fake OpenAI-compatible
# server that waits DELAY seconds before each reply, for --max-in-flight 1, 4
# and 16 (docs/scale.md). Method `standard` (one request per sample) over the
# three bundled problems saxpy, sum_of_squares and spmv_csr, SAMPLES samples
# each, --no-cache. With CODE=1 even seeds get the problem's solution as the
# reply and are verified in the CPU emulator (--emulate --emulate-tests-only,
# --jobs 2, build cache warmed first); with CODE=0 every reply is prose and
# nothing is verified: the requests alone.
# Prints each run and the median of RUNS runs per setting.
# Usage: scripts/measure-inflight.sh [REGRAPHT_BINARY]   (env: DELAY=0.5 SAMPLES=16 RUNS=3 CODE=1)
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$src/build/regrapht}
delay=${DELAY:-0.5}
samples=${SAMPLES:-16}
runs=${RUNS:-3}
. "$src/src/cli/fake_server.sh"

mkdir -p "$tmp/suite" "$tmp/replies"
for p in saxpy sum_of_squares spmv_csr; do cp -r "$src/problems/$p" "$tmp/suite/$p"; done
echo '{"format": "regrapht-suite", "version": 1, "name": "inflight"}' >"$tmp/suite/suite.json"
if [ "${CODE:-1}" = 1 ]; then
  cp "$src/problems/saxpy/solution.cu" "$tmp/replies/saxpy.cu"
  cp "$src/problems/sum_of_squares/solution.cu" "$tmp/replies/sumOfSquares.cu"
  cp "$src/problems/spmv_csr/solution.cu" "$tmp/replies/spmv_csr.cu"
fi
export FAKE_SEARCH_REPLIES="$tmp/replies"
FAKE_DELAY_S=$delay start_fake_server "$tmp"
requests=$((3 * samples))

bench() {  # IN_FLIGHT: prints the wall time
  rm -f "$tmp/r.sqlite"
  t0=$(date +%s.%N)
  "$bin" bench --suite "$tmp/suite" --method standard --samples "$samples" --endpoint "$endpoint" \
    --model-name m --emulate --emulate-tests-only --no-cache --jobs 2 --max-in-flight "$1" --db "$tmp/r.sqlite" \
    --quiet >"$tmp/out.txt" 2>&1 || fail "bench exited $?"
  python3 -c "print('%.2f' % ($(date +%s.%N) - $t0))"
}

bench 4 >/dev/null  # fills the build cache
echo "delay $delay s, $requests requests per run, code=${CODE:-1}"
base=""
for n in 1 4 16; do
  times=""
  for r in $(seq "$runs"); do times="$times $(bench "$n")"; done
  med=$(python3 -c "import statistics, sys; print('%.2f' % statistics.median(map(float, sys.argv[1:])))" $times)
  [ -z "$base" ] && base=$med
  python3 -c "print('in-flight %2d: runs%s s; median %s s = %.2f requests/s, %.2fx in-flight 1' % ($n, '$times', '$med', $requests / $med, $base / $med))"
done
