#!/bin/sh
# bench --max-in-flight and replicas against a fake OpenAI-compatible server
# that waits FAKE_DELAY_S before each reply (a slow model) and answers with
# code or prose depending on the request's seed:
#   1. --max-in-flight 4 has 4 requests at the server at once (1 has one),
#      with rows identical to the sequential run's (seeds, verdicts,
#      candidates, tokens). The wall times are printed, not asserted: this
#      test starts beside the CPU-heavy content gates (its COST), and the
#      candidates' checks it overlaps with the requests slow down with them
#      (CI on 2 cores measured 1.31x once); on a quiet machine 4 in flight
#      take about a quarter of the sequential time;
#   2. with a replica that answers HTTP 503 listed first, every sample is
#      still answered, by the healthy replica, with the same rows, and the
#      failing replica is tried again only after a rest (a few requests,
#      not one per sample).
# Candidates run in the CPU emulator (no GPU needed); the first run fills the
# build cache so that the timed runs compare requests, not compiles.
# Usage: bench_concurrency_test.sh REGRAPHT_BINARY SOURCE_DIR
set -u
bin=$1
src=$2
. "$src/src/cli/fake_server.sh"

mkdir -p "$tmp/suite" "$tmp/replies"
for p in saxpy sum_of_squares spmv_csr; do cp -r "$src/problems/$p" "$tmp/suite/$p"; done
cat >"$tmp/suite/suite.json" <<'JSON'
{"format": "regrapht-suite", "version": 1, "name": "inflight"}
JSON
# Replies by function name (the server looks for "NAME(" in the prompt).
cp "$src/problems/saxpy/solution.cu" "$tmp/replies/saxpy.cu"
cp "$src/problems/sum_of_squares/solution.cu" "$tmp/replies/sumOfSquares.cu"
cp "$src/problems/spmv_csr/solution.cu" "$tmp/replies/spmv_csr.cu"

export FAKE_SEARCH_REPLIES="$tmp/replies"
FAKE_DELAY_S=0.5 start_named_fake_server slow "$tmp"
slow=$endpoint
FAKE_STATUS=503 start_named_fake_server bad "$tmp"
bad=$endpoint

# run NAME IN_FLIGHT ENDPOINTS: 3 problems x 4 samples of `standard`; sets $wall (seconds).
run() {
  start_line=$(( $(cat "$tmp/slow.log" 2>/dev/null | wc -l) + 1 ))
  t0=$(date +%s.%N)
  "$bin" bench --suite "$tmp/suite" --method standard --samples 4 --endpoint "$3" --model-name test-model \
    --emulate --emulate-tests-only --no-cache --max-in-flight "$2" --db "$tmp/$1.sqlite" --quiet \
    >"$tmp/$1.txt" 2>&1 || fail "bench $1 (--max-in-flight $2) exited $?"
  t1=$(date +%s.%N)
  grep -q "inflight / standard: 12 samples (0 already done)" "$tmp/$1.txt" || fail "bench $1: summary"
  wall=$(python3 -c "print('%.2f' % ($t1 - $t0))")
  # The most requests the slow server held at once during this run.
  most=$(tail -n "+$start_line" "$tmp/slow.log" | sed -n 's/^inflight //p' | sort -n | tail -1)
}

# same_rows A B: the rows of A.sqlite and B.sqlite are the same samples with the same outcomes.
same_rows() {
  python3 - "$tmp/$1.sqlite" "$tmp/$2.sqlite" <<'PY' || fail "rows of $1 and $2 differ"
import sqlite3, sys
def rows(path):
    return sqlite3.connect(path).execute(
        "SELECT problem, sample, seed, verdict, speedup, candidate_hash, candidate_source, tokens_prompt, "
        "tokens_generated, generations, verifications FROM results ORDER BY problem, sample").fetchall()
a, b = rows(sys.argv[1]), rows(sys.argv[2])
assert len(a) == 12, len(a)
assert a == b, "\n".join(str(x) + "\n" + str(y) for x, y in zip(a, b) if x != y)
verdicts = sorted(set(r[3] for r in a))
assert verdicts == ["compile_error", "correct"], verdicts  # code for even seeds, prose for odd ones
PY
}

run warm 4 "$slow"
run seq 1 "$slow"
seq=$wall
[ "$most" = 1 ] || fail "--max-in-flight 1 had $most requests in flight at once"
run par 4 "$slow"
par=$wall
# The server saw 4 requests at once: that is the property, observed where it
# happens. The wall times also hold the candidates' checks (CPU, slower on a
# loaded machine), so they are information, not a pass/fail threshold.
[ "$most" = 4 ] || fail "--max-in-flight 4 had at most $most requests in flight at once (expected 4)"
ratio=$(python3 -c "print('%.2f' % ($seq / $par))")
echo "12 requests of 0.5 s: --max-in-flight 1: $seq s, 4: $par s (${ratio}x; 4 in flight at once)"
same_rows seq par
same_rows seq warm
# Every row says what ran: the command, version, commit, device (the emulator), what the caches
# served it, and, the run having ended, its exit status and wall time. The warm run filled the build
# cache: the later runs' builds come from it, and the summary says so.
python3 - "$tmp/par.sqlite" <<'PY' || fail "the rows do not record what ran"
import json, sqlite3, sys
runs = [json.loads(r[0]) for r in sqlite3.connect(sys.argv[1]).execute("SELECT run_json FROM results")]
assert len(runs) == 12
for r in runs:
    assert "bench --suite" in r["command"] and "--max-in-flight 4" in r["command"], r
    assert r["version"] and r["commit"] and r["run_id"] == runs[0]["run_id"], r
    assert r["device"] == "regrapht CUDA emulator (CPU)" and r["emulated"] is True, r
    assert r["exit_status"] == 0 and r["run_wall_s"] > 0, r
    assert r["cache"]["replies"] == 1 and r["cache"]["replies_cached"] == 0, r
assert sum(r["cache"]["builds_cached"] for r in runs) == sum(r["cache"]["builds"] for r in runs) > 0, runs
PY
grep -q "^cache      .* builds from the build cache" "$tmp/par.txt" || fail "bench does not say what the build cache served"

# --json: the run's summary as one JSON document on stdout (here a resume: every sample already done).
"$bin" bench --suite "$tmp/suite" --method standard --samples 4 --endpoint "$slow" --model-name test-model \
  --emulate --emulate-tests-only --no-cache --db "$tmp/seq.sqlite" --json >"$tmp/json.out" 2>"$tmp/json.err" ||
  fail "bench --json exited $?"
python3 - "$tmp/json.out" <<'PY' || fail "bench --json: $(cat "$tmp/json.out")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["suite"] == "inflight" and d["method"] == "standard" and d["samples"] == 12, d
assert d["already_done"] == 12 and d["stopped_early"] is False and d["shard"] == {"index": 0, "count": 1}, d
PY
grep -q "inflight / standard: 12 samples (12 already done)" "$tmp/json.err" || fail "bench --json: the human summary is not on stderr"

run replicas 4 "$bad,$slow"
echo "with a failing replica first: $wall s"
same_rows seq replicas
tried=$(grep -c '^status 503' "$tmp/bad.log")
# Each try of the failing replica is 2 attempts (one retry); it rests 5 s after
# the first failure, so a run of ~4 s tries it once or twice, never per sample.
[ "$tried" -ge 1 ] && [ "$tried" -le 6 ] || fail "the failing replica got $tried requests"
echo ok
