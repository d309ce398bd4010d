#!/bin/sh
# `regrapht suite calibrate` on a fixture suite of three tiny problems
# (testdata/calibrate: linear, linear with a parameter size, quadratic) at a
# 2 ms target: the table, --write rewriting only the timing sizes (the
# parameter untouched, every other byte kept, the specs still valid), and bad
# input: a missing folder, a folder without problems, an unknown --only, a
# target of 0, --emulate.
# Usage: calibrate_cli_test.sh REGRAPHT_BINARY SOURCE_DIR
set -u
bin=$1
src=$2
. "$(dirname "$0")/scratch.sh"
export REGRAPHT_CACHE_DIR="$tmp/cache"
cp -r "$src/src/cli/testdata/calibrate" "$tmp/suite"

# Proposals only: nothing written.
"$bin" suite calibrate "$tmp/suite" --target-ms 2 >"$tmp/dry.txt" 2>&1 || fail "calibrate exited $?"
grep -q "^| problem | old sizes | old ms | new sizes | new ms | note |" "$tmp/dry.txt" || fail "table header"
for p in scale_add box_sum pair_count; do
  grep -q "^| $p | " "$tmp/dry.txt" || fail "no row for $p"
  cmp -s "$src/src/cli/testdata/calibrate/$p/problem.json" "$tmp/suite/$p/problem.json" || fail "$p written without --write"
done
grep -q "^3 problem(s), 0 failed (--write rewrites the specs)" "$tmp/dry.txt" || fail "summary"

# --write: the timing sizes change, the parameter and everything else stay.
"$bin" suite calibrate "$tmp/suite" --target-ms 2 --write >"$tmp/write.txt" 2>&1 || fail "calibrate --write exited $?"
grep -q "^3 problem(s), 0 failed, 3 spec(s) rewritten" "$tmp/write.txt" || fail "write summary"
for p in scale_add box_sum pair_count; do
  row=$(grep "^| $p | " "$tmp/write.txt")
  new_ms=$(echo "$row" | awk -F'|' '{gsub(/ /, "", $6); print $6}')
  awk -v v="$new_ms" 'BEGIN { exit !(v >= 2 && v <= 6) }' || fail "$p: new ms $new_ms outside [2, 6]"
  diff "$src/src/cli/testdata/calibrate/$p/problem.json" "$tmp/suite/$p/problem.json" >"$tmp/$p.diff"
  [ "$(grep -c '^[<>]' "$tmp/$p.diff")" = 2 ] || fail "$p: more than the timing line changed"
  grep -q '^> *"timing": {"sizes": {' "$tmp/$p.diff" || fail "$p: the timing line was not rewritten in place"
done
grep -q '"radius": 3}' "$tmp/suite/box_sum/problem.json" || fail "box_sum: the parameter size moved"
"$bin" problem check --no-build "$tmp/suite"/*/ >"$tmp/check.txt" 2>&1 || fail "rewritten specs do not check"

# Bad input: clear errors, non-zero exits, nothing written.
cp -r "$tmp/suite" "$tmp/before"
"$bin" suite calibrate "$tmp/nope" >"$tmp/e1.txt" 2>&1 && fail "missing folder accepted"
grep -q "nope: no such folder" "$tmp/e1.txt" || fail "missing folder message"
mkdir "$tmp/empty"
"$bin" suite calibrate "$tmp/empty" >"$tmp/e2.txt" 2>&1 && fail "empty folder accepted"
grep -q "neither a suite (suite.json) nor a folder of problems" "$tmp/e2.txt" || fail "empty folder message"
"$bin" suite calibrate "$tmp/suite" --only nosuch --write >"$tmp/e3.txt" 2>&1 && fail "unknown --only accepted"
grep -q 'no problem named "nosuch"' "$tmp/e3.txt" || fail "--only message"
"$bin" suite calibrate "$tmp/suite" --target-ms 0 >"$tmp/e4.txt" 2>&1 && fail "target 0 accepted"
grep -q "target-ms" "$tmp/e4.txt" || fail "--target-ms message"
"$bin" suite calibrate "$tmp/suite" --emulate >"$tmp/e5.txt" 2>&1 && fail "--emulate accepted"
grep -q "times the reference" "$tmp/e5.txt" || fail "--emulate message"
echo '{"format": "regrapht-problem", "version": 1, "name": "broken"' >"$tmp/suite/pair_count/problem.json"
"$bin" suite calibrate "$tmp/suite" --write >"$tmp/e6.txt" 2>&1 && fail "broken spec accepted"
grep -q "pair_count/problem.json" "$tmp/e6.txt" || fail "broken spec message names the file"
cmp -s "$tmp/before/scale_add/problem.json" "$tmp/suite/scale_add/problem.json" || fail "a failed run wrote a spec"
echo "ok"
