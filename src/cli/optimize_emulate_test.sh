#!/bin/sh
# End to end without a GPU: `regrapht optimize --emulate` against a canned
# OpenAI-compatible server (fake_openai_server.py) whose every search reply is
# a correct saxpy kernel (the bundled problem's expert solution). Candidates
# are compiled by nvcc and run in the CPU emulator; optimize must write the
# correct file, say that its speed was not measured, exit 3, and record
# "emulated" in the report, and re-verify the answer on held-out inputs.
# Usage: optimize_emulate_test.sh REGRAPHT_BINARY SOURCE_DIR
set -u
bin=$1
src=$2
. "$src/src/cli/fake_server.sh"
# Every search step is answered with the bundled saxpy's expert solution.
export FAKE_SEARCH_REPLY="$src/problems/saxpy/solution.cu"
start_fake_server "$src/src/cli/testdata/graph_build"

cp "$src/examples/saxpy.cpp" "$tmp/"
"$bin" optimize "$tmp/saxpy.cpp" --function saxpy --endpoint "$endpoint" --model-name test-model \
  --budget 2 --seed 3 --emulate -o "$tmp/saxpy.cu" >"$tmp/out.txt" 2>&1
rc=$?
[ $rc -eq 3 ] || fail "optimize --emulate exited $rc, expected 3"
grep -q "correct on every test and on held-out inputs in the CPU emulator; its speed was NOT measured" \
  "$tmp/out.txt" || fail "the result line does not say held-out, emulated and untimed"
diff -qbB "$tmp/saxpy.cu" "$FAKE_SEARCH_REPLY" >/dev/null ||
  fail "the written file is not the correct candidate"
grep -q '^search$' "$tmp/requests.log" || fail "the fake model was never asked"
python3 - "$tmp/saxpy.report.json" <<'PY' || fail "report"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["best_verified"] is True, r["best_verified"]
assert r["best_evidence"] == "emulated", r["best_evidence"]
assert "speed not measured" in r["best_rule"], r["best_rule"]
best = r["best_result"]
assert best["verdict"] == "correct" and best.get("emulated") is True, best
assert all(a["verdict"] == "correct" and a["reward"] == 1.0 for a in r["attempts"]), r["attempts"]
held = r["heldout_result"]  # the answer re-verified on held-out inputs (new seeds)
assert held["verdict"] == "correct" and held.get("emulated") is True, held
assert all(a["code"] for a in r["attempts"]), "attempts carry their code"
assert "void saxpy" in r["source"], "the report carries the sequential code"
# --pipeline auto is 2 with an endpoint: the next candidate is generated while one is checked.
assert r["pipeline"]["depth"] == 2, r.get("pipeline")
PY
# The page of the search (tree show --format html), beside the report.
grep -q "^page       $tmp/saxpy.report.html" "$tmp/out.txt" || fail "optimize did not name its page"
python3 "$src/src/cli/html_check.py" "$tmp/saxpy.report.html" --id summary:table --id tree:figure \
  --id attempt-0:section || fail "the optimize page"
echo ok
