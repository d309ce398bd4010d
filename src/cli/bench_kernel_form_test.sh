#!/bin/sh
# The kernel form end to end without a GPU: `bench --form kernel --emulate` on a
# one-problem suite (the harness's count_positive test data), first with the
# expert kernel.cu (--method reference), then with a search method against a
# canned OpenAI-compatible server that answers every step with that kernel.
# The model must be shown the ParEval-style prompt given with --pareval-prompts
# and a system prompt naming the kernel signature and the launch contract; the
# rows must land under the suite name "<suite>/kernel".
# Usage: bench_kernel_form_test.sh REGRAPHT_BINARY SOURCE_DIR
set -u
bin=$1
src=$2
. "$src/src/cli/fake_server.sh"
problem="$src/src/verify/testdata/count_positive"
mkdir -p "$tmp/suite"
cp -r "$problem" "$tmp/suite/count_positive"
cat >"$tmp/suite/suite.json" <<'JSON'
{"format": "regrapht-suite", "version": 1, "name": "kf", "grouped_by": "category"}
JSON
cat >"$tmp/prompts.json" <<'JSON'
[{"name": "count_positive", "problem_type": "reduce", "parallelism_model": "serial",
  "prompt": "int countPositive(std::vector<double> const& x) {"},
 {"name": "count_positive", "problem_type": "reduce", "parallelism_model": "cuda",
  "prompt": "/* MARKER-7f3 count the positive values */\n__global__ void countPositive(const double *x, size_t N, int *count) {"}]
JSON

"$bin" bench --suite "$tmp/suite" --method reference --form kernel --emulate --db "$tmp/r.sqlite" --quiet \
  >"$tmp/ref.txt" 2>&1 || fail "bench --method reference --form kernel exited $?"
grep -q "kf/kernel / reference: 1 samples (0 already done): 1 correct" "$tmp/ref.txt" || fail "reference summary"

export FAKE_SEARCH_REPLY="$problem/kernel.cu"
export FAKE_PROMPT_LOG="$tmp/prompts.log"
start_fake_server "$src/src/cli/testdata/graph_build"
"$bin" bench --suite "$tmp/suite" --method standard --form kernel --pareval-prompts "$tmp/prompts.json" \
  --endpoint "$endpoint" --model-name test-model --emulate --db "$tmp/r.sqlite" --quiet >"$tmp/std.txt" 2>&1 ||
  fail "bench --method standard --form kernel exited $?"
grep -q "kf/kernel / standard: 1 samples (0 already done): 1 correct" "$tmp/std.txt" || fail "standard summary"
python3 - "$tmp/prompts.log" <<'PY' || fail "the prompt"
import json, sys
msgs = json.loads(open(sys.argv[1]).readline())
system, user = msgs[0]["content"], msgs[-1]["content"]
assert "__global__ void countPositive(const double* x, size_t N, int* count)" in system, system
assert "1-D blocks of 1024 threads, at least n threads" in system, system
assert "On entry *count holds 0" in system, system
assert "MARKER-7f3" in user, user
assert "std::vector" not in user, user
PY
# The standard method's answer was re-verified on held-out inputs (docs/bench.md); the expert
# solutions (method reference) are not re-run.
python3 - "$tmp/r.sqlite" <<'PY' || fail "held-out columns"
import sqlite3, sys
rows = dict(sqlite3.connect(sys.argv[1]).execute(
    "SELECT method, search_verdict FROM results").fetchall())
assert rows == {"reference": None, "standard": "correct"}, rows
PY
"$bin" report --db "$tmp/r.sqlite" --format csv >"$tmp/report.txt" 2>&1 || fail "report"
grep -q "kf/kernel" "$tmp/report.txt" || fail "the report has no kf/kernel rows"
echo ok
