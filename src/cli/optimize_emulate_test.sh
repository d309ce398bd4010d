#!/bin/sh
# End to end without a GPU: `regrapht optimize --emulate` against a canned
# OpenAI-compatible server (fake_openai_server.py) whose every search reply is
# a correct saxpy kernel. The candidates are compiled by nvcc and run in the
# CPU emulator; optimize must write the correct file, say that its speed was
# not measured, exit 3, and record "emulated" in the report.
# Usage: optimize_emulate_test.sh REGRAPHT_BINARY SOURCE_DIR
set -u
bin=$1
src=$2
tmp=$(mktemp -d)
server_pid=
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
fail() {
  echo "FAIL: $*" >&2
  for f in "$tmp"/*.log "$tmp"/*.txt; do [ -f "$f" ] && { echo "---- $f" >&2; cat "$f" >&2; }; done
  exit 1
}
command -v python3 >/dev/null 2>&1 || { echo "python3 not found: skipped"; exit 77; }
command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ] || { echo "nvcc not found: skipped"; exit 77; }
export REGRAPHT_CACHE_DIR="$tmp/cache"

python3 "$src/src/cli/fake_openai_server.py" "$src/src/cli/testdata/optimize_emulate" "$tmp/port" \
  "$tmp/requests.log" &
server_pid=$!
i=0
while [ ! -s "$tmp/port" ]; do
  i=$((i + 1))
  [ $i -gt 100 ] && fail "the fake server did not start"
  sleep 0.1
done
endpoint="http://127.0.0.1:$(cat "$tmp/port")/v1"

cp "$src/examples/saxpy.cpp" "$tmp/"
"$bin" optimize "$tmp/saxpy.cpp" --function saxpy --endpoint "$endpoint" --model-name test-model \
  --budget 2 --seed 3 --emulate -o "$tmp/saxpy.cu" >"$tmp/out.txt" 2>&1
rc=$?
[ $rc -eq 3 ] || fail "optimize --emulate exited $rc, expected 3"
grep -q "correct on every test in the CPU emulator; its speed was NOT measured" "$tmp/out.txt" ||
  fail "the result line does not say emulated and untimed"
diff -qbB "$tmp/saxpy.cu" "$src/src/cli/testdata/optimize_emulate/search_reply.cu" >/dev/null ||
  fail "the written file is not the correct candidate"
grep -q '^search$' "$tmp/requests.log" || fail "the fake model was never asked"
python3 - "$tmp/saxpy.report.json" <<'PY' || fail "report"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["best_verified"] is True, r["best_verified"]
assert "speed not measured" in r["best_rule"], r["best_rule"]
best = r["best_result"]
assert best["verdict"] == "correct" and best.get("emulated") is True, best
assert all(a["verdict"] == "correct" and a["reward"] == 1.0 for a in r["attempts"]), r["attempts"]
PY
echo ok
