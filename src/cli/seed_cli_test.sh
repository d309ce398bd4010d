#!/bin/sh
# The rules' first step through the CLI, without a GPU (docs/search.md "The
# rules' first step"), each seed judged by the CPU emulator:
#   1. optimize --method rules: no model; the seed alone is written, verified,
#      and reported as authored by the rules (exit 3: emulated, untimed).
#   2. MCGS with a fake model that echoes its input code: the seed is the
#      first step (the root's thread_mapping child, no generation), and every
#      model step starts from its code (parent 0, the same code back).
#   3. --first-step none: no seed anywhere in the report; the model's first request
#      starts from the sequential code.
#   4. bench --method rules on a small suite: a row per problem, the refused
#      one saying why.
# Usage: seed_cli_test.sh REGRAPHT_BINARY SOURCE_DIR
set -u
bin=$1
src=$2
. "$src/src/cli/fake_server.sh"
cp "$src/examples/saxpy.cpp" "$tmp/"

# 1. The rules alone.
"$bin" optimize "$tmp/saxpy.cpp" --function saxpy --method rules --emulate --emulate-tests-only \
  -o "$tmp/r/saxpy.cu" >"$tmp/rules.txt" 2>&1
rc=$?
if grep -q "seed       none from the rules (unavailable)" "$tmp/rules.txt"; then
  echo "built without libclang: the rules say so (skipped)"
  exit 77
fi
[ $rc -eq 3 ] || fail "optimize --method rules exited $rc, expected 3"
grep -q "^seed       the rules wrote a map version (thread_mapping, no model)$" "$tmp/rules.txt" ||
  fail "no seed line"
grep -q "^| 1 | thread_mapping | rules | correct | untimed |$" "$tmp/rules.txt" || fail "the path does not say rules"
grep -q "thread_mapping (rules)" "$tmp/r/saxpy.report.html" || fail "the page does not say the seed is the rules'"
python3 - "$tmp/r/saxpy.report.json" "$tmp/r/saxpy.cu" <<'PY' || fail "rules report"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["method"] == "rules" and r["generations"] == 0 and r["verifications"] == 1, r
assert r["seed"]["written"] is True and r["seed"]["pattern"] == "map", r["seed"]
(a,) = r["attempts"]
assert a["by"] == "rules" and a["action"] == "thread_mapping" and a["verdict"] == "correct", a
assert a["tokens_generated"] == 0 and a["parent"] == -1, a
assert open(sys.argv[2]).read() == a["code"], "the written file is the seed"
PY

# 2. MCGS from the seed with a model that changes nothing.
export FAKE_ECHO=1
start_fake_server "$src/src/cli/testdata/graph_build"
"$bin" optimize "$tmp/saxpy.cpp" --function saxpy --endpoint "$endpoint" --model-name test-model \
  --budget 2 --emulate --emulate-tests-only --no-heldout -o "$tmp/e/saxpy.cu" >"$tmp/echo.txt" 2>&1
rc=$?
[ $rc -eq 3 ] || fail "optimize from the seed exited $rc, expected 3"
grep -q "thread_mapping (rules)" "$tmp/echo.txt" || fail "no progress line for the seed"
grep -q '^echo$' "$tmp/requests.log" || fail "the fake model was never asked with the current code"
python3 - "$tmp/e/saxpy.report.json" <<'PY' || fail "report from the seed"
import json, sys
r = json.load(open(sys.argv[1]))
att = r["attempts"]
seed = att[0]
assert seed["by"] == "rules" and seed["action"] == "thread_mapping" and seed["parent"] == -1, seed
assert seed["verdict"] == "correct", seed
assert r["generations"] == 2 and len(att) == 3, (r["generations"], len(att))
assert att[1]["parent"] == 0, att[1]       # the model's first step started from the seed
for a in att[1:]:
    assert "by" not in a, a                                 # the model's
    assert a["code"].strip() == seed["code"].strip(), a     # the seed's code, echoed
    assert a["verdict"] == "correct", a
root = r["tree"]["nodes"][0]
first = [e for e in root["edges"] if e["child"] == 1]
assert first and first[0]["technique"] == "thread_mapping", root["edges"]
assert r["tree"]["nodes"][1]["attempt"] == 0, r["tree"]["nodes"][1]
assert r["best_path"][0] == 0, r["best_path"]
PY

# 3. --first-step none: the search as before, from the sequential code.
"$bin" optimize "$tmp/saxpy.cpp" --function saxpy --endpoint "$endpoint" --model-name test-model \
  --budget 2 --first-step none --seed 3 --emulate --emulate-tests-only --no-heldout -o "$tmp/n/saxpy.cu" \
  >"$tmp/none.txt" 2>&1
grep -q "^seed " "$tmp/none.txt" && fail "--first-step none printed a seed line"
grep -qE "seed 3(,|$)" "$tmp/none.txt" || fail "--seed 3 beside --first-step none was not the search seed"
python3 - "$tmp/n/saxpy.report.json" <<'PY' || fail "report without a seed"
import json, sys
r = json.load(open(sys.argv[1]))
assert "seed" not in r, r["seed"]
assert all("by" not in a for a in r["attempts"]), r["attempts"]
assert r["generations"] == len(r["attempts"]) == 2, r
assert r["attempts"][0]["parent"] == -1
assert "seed_step" not in r["config"], r["config"]
PY
"$bin" optimize "$tmp/saxpy.cpp" --function saxpy --first-step maybe >"$tmp/bad.txt" 2>&1
[ $? -eq 2 ] || fail "--first-step maybe is not a usage error"
grep -q "rules" "$tmp/bad.txt" || fail "--first-step maybe: the message does not say what is expected"
"$bin" optimize "$tmp/saxpy.cpp" --function saxpy --seed maybe >"$tmp/bad.txt" 2>&1
[ $? -eq 2 ] || fail "--seed maybe is not a usage error"
grep -q -- "--seed" "$tmp/bad.txt" || fail "--seed maybe: the message does not name the flag"

# 4. bench --method rules on a small suite: two seeds the emulator judges,
#    and a scan the rules refuse, whose row says why.
mkdir -p "$tmp/suite"
printf '{"format": "regrapht-suite", "version": 1, "name": "seedtest", "tiered": false}\n' >"$tmp/suite/suite.json"
cp -r "$src/problems/saxpy" "$src/problems/sum_of_squares" "$src/suites/cudaeval/inclusive_scan_i32" "$tmp/suite/"
"$bin" bench --suite "$tmp/suite" --method rules --emulate --emulate-tests-only --db "$tmp/b.sqlite" \
  >"$tmp/bench.txt" 2>&1 || fail "bench --method rules"
python3 - "$tmp/b.sqlite" <<'PY' || fail "bench rows"
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
rows = {p: (v, json.loads(j or "{}").get("detail", "")) for p, v, j in
        db.execute("SELECT problem, verdict, result_json FROM results WHERE method = 'rules'")}
assert set(rows) == {"saxpy", "sum_of_squares", "inclusive_scan_i32"}, rows
assert rows["saxpy"][0] == "correct", rows["saxpy"]
assert rows["sum_of_squares"][0] == "correct", rows["sum_of_squares"]
verdict, detail = rows["inclusive_scan_i32"]
assert verdict == "compile_error", verdict
assert detail.startswith("no seed from the rules (dependence): ") and "running" in detail, detail
PY
echo ok
