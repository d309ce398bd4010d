#!/bin/sh
# `problem check --jobs 2` (folders checked two at a time when nothing is
# timed): every folder gets its line, in the order given, whichever finishes
# first; a failing folder in the middle is reported as FAIL, counted, and
# makes the exit status non-zero; --json lists the folders in the same order.
# The failing folder fails fast (its reference does not compile) while the
# first is still building, so out-of-order printing would show.
# Usage: check_jobs_test.sh REGRAPHT_BINARY SOURCE_DIR
set -u
bin=$1
src=$2
. "$(dirname "$0")/scratch.sh"
cp -r "$src/problems/saxpy" "$tmp/bad" || fail "cannot copy saxpy"
echo 'int broken = ;  // does not compile' >>"$tmp/bad/reference.cpp"
set -- "$src/problems/saxpy" "$tmp/bad" "$src/problems/jacobi2d" "$src/problems/sum_of_squares"
"$bin" problem check --no-timing --arch sm_90 --jobs 2 "$@" >"$tmp/out.txt" 2>"$tmp/err.txt"
rc=$?
[ $rc -eq 1 ] || fail "problem check with a failing folder exited $rc, not 1"
grep -E '^(ok|FAIL) ' "$tmp/out.txt" | awk '{print $1, $2}' >"$tmp/order.txt"
printf 'ok %s\nFAIL %s\nok %s\nok %s\n' "$@" >"$tmp/want.txt"
cmp -s "$tmp/order.txt" "$tmp/want.txt" || fail "lines are not in folder order: $(cat "$tmp/order.txt")"
grep -q "reference.cpp: does not compile" "$tmp/out.txt" || fail "the failing folder's reason is missing"
grep -q '^4 problem(s), 1 failed$' "$tmp/out.txt" || fail "the summary does not count 4 folders, 1 failed"
"$bin" problem check --no-timing --arch sm_90 --jobs 2 --json "$@" >"$tmp/out.json" 2>"$tmp/err2.txt"
python3 - "$tmp/out.json" "$@" <<'PY' || fail "--json: folders or verdicts out of order"
import json, sys
doc = json.load(open(sys.argv[1]))
got = [(p["dir"], p["ok"]) for p in doc["problems"]]
want = list(zip(sys.argv[2:], [True, False, True, True]))
sys.exit(0 if got == want and doc["failed"] == 1 else 1)
PY
echo "ok"
