#!/bin/sh
# bench --method reference runs --jobs verifications at once: a two-problem
# suite's expert solutions, emulated, with --jobs 1 and then --jobs 2. Each row
# has its end (created_at, whole seconds) and its verification's wall time,
# so the two verifications' intervals overlap by about a whole verification
# with --jobs 2 and by at most the second's rounding with --jobs 1. The rows'
# verdicts are the same either way.
# Usage: bench_reference_jobs_test.sh REGRAPHT_BINARY SOURCE_DIR
set -u
bin=$1
src=$2
. "$src/src/cli/fake_server.sh"
mkdir -p "$tmp/suite"
for p in saxpy sum_of_squares; do cp -r "$src/problems/$p" "$tmp/suite/$p"; done
cat >"$tmp/suite/suite.json" <<'JSON'
{"format": "regrapht-suite", "version": 1, "name": "jobs"}
JSON
for j in 1 2; do
  "$bin" bench --suite "$tmp/suite" --method reference --emulate --jobs "$j" --db "$tmp/j$j.sqlite" --quiet \
    >"$tmp/j$j.txt" 2>&1 || fail "bench --method reference --jobs $j exited $?"
  grep -q "2 samples (0 already done): 2 correct" "$tmp/j$j.txt" || fail "--jobs $j summary"
done
python3 - "$tmp/j1.sqlite" "$tmp/j2.sqlite" <<'PY'
import datetime, sqlite3, sys
def overlap(db):
    rows = sqlite3.connect(db).execute("SELECT problem, verdict, created_at, wall_ms FROM results").fetchall()
    assert len(rows) == 2 and all(r[1] == "correct" for r in rows), rows
    ends = [datetime.datetime.fromisoformat(r[2].replace("Z", "+00:00")).timestamp() for r in rows]
    starts = [e - r[3] / 1000 for e, r in zip(ends, rows)]
    # created_at is truncated to the second: an end lies up to 1 s after it.
    return min(e + 1 for e in ends) - max(starts), min(r[3] for r in rows) / 1000
one, _ = overlap(sys.argv[1])
two, shortest = overlap(sys.argv[2])
print(f"overlap: --jobs 1 {one:.1f} s, --jobs 2 {two:.1f} s (shortest verification {shortest:.1f} s)")
if shortest < 1.6:
    print(f"verifications of {shortest:.1f} s are too short to tell overlap from rounding: skipped")
    sys.exit(77)
assert one <= 1.5, f"--jobs 1 verifications overlapped by {one:.1f} s"
assert two >= 1.5, f"--jobs 2 verifications overlapped by only {two:.1f} s"
PY
rc=$?
[ $rc -eq 77 ] && exit 77
[ $rc -eq 0 ] || fail "the verifications' overlap"
echo ok
