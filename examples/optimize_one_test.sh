#!/bin/sh
# examples/optimize_one against the canned OpenAI-compatible server
# (src/cli/fake_openai_server.py) whose every search reply is the bundled
# saxpy's expert solution, with the CPU emulator: the library call must
# write that solution, say it is correct but untimed, exit 3, and leave the
# report beside it.
# Usage: optimize_one_test.sh OPTIMIZE_ONE_BINARY SOURCE_DIR
set -u
bin=$1
src=$2
. "$src/src/cli/fake_server.sh"
export FAKE_SEARCH_REPLY="$src/problems/saxpy/solution.cu"
start_fake_server "$src/src/cli/testdata/graph_build"

cp "$src/examples/saxpy.cpp" "$tmp/"
"$bin" "$tmp/saxpy.cpp" saxpy -e "$endpoint" -n test-model -b 2 --emulate -o "$tmp/saxpy.cu" >"$tmp/out.txt" 2>&1
rc=$?
[ $rc -eq 3 ] || fail "optimize_one exited $rc, expected 3 (correct in the emulator, untimed)"
grep -q '^verdict  untimed$' "$tmp/out.txt" || fail "no untimed verdict"
grep -q "^cuda     $tmp/saxpy.cu\$" "$tmp/out.txt" || fail "the CUDA file is not named"
diff -qbB "$tmp/saxpy.cu" "$FAKE_SEARCH_REPLY" >/dev/null || fail "the written file is not the correct candidate"
grep -q '^search$' "$tmp/requests.log" || fail "the fake model was never asked"
python3 - "$tmp/saxpy.report.json" <<'PY' || fail "report"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["function"] == "saxpy", r["function"]
assert r["best_evidence"] == "emulated", r["best_evidence"]
assert r["heldout_result"]["verdict"] == "correct", r["heldout_result"]
PY
# Bad input: a clear error naming the file, exit 1.
"$bin" "$tmp/missing.cpp" saxpy -e "$endpoint" -n test-model --emulate >"$tmp/bad.txt" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "a missing file exited $rc, expected 1"
grep -q "missing.cpp" "$tmp/bad.txt" || fail "the error does not name the file"
echo ok
