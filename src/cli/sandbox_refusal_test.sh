#!/bin/sh
# Candidates never run unsandboxed by accident: with no usable bubblewrap,
# verify refuses (exit 1, saying why and naming --unsafe-no-sandbox); with
# the flag it runs and the result says UNSANDBOXED.
# Usage: sandbox_refusal_test.sh REGRAPHT SOURCE_DIR
set -u
bin="$1"
src="$2"
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
out=$(REGRAPHT_BWRAP=/nonexistent/bwrap "$bin" verify --problem "$src/problems/saxpy" \
  --candidate "$src/problems/saxpy/solution.cu" --cache "$cache" 2>&1)
rc=$?
[ $rc -eq 1 ] || { echo "expected exit 1 without a sandbox, got $rc: $out"; exit 1; }
echo "$out" | grep -q "never run unsandboxed" || { echo "no refusal message: $out"; exit 1; }
echo "$out" | grep -q -- "--unsafe-no-sandbox" || { echo "the message must name --unsafe-no-sandbox: $out"; exit 1; }
out=$(REGRAPHT_BWRAP=/nonexistent/bwrap "$bin" verify --problem "$src/problems/saxpy" \
  --candidate "$src/problems/saxpy/solution.cu" --cache "$cache" --unsafe-no-sandbox 2>&1)
rc=$?
[ $rc -eq 3 ] || [ $rc -eq 0 ] || { echo "expected a verdict with --unsafe-no-sandbox, got $rc: $out"; exit 1; }
echo "$out" | grep -q "UNSANDBOXED" || { echo "the result must say UNSANDBOXED: $out"; exit 1; }
# bench refuses before it runs anything and leaves no rows behind.
out=$(REGRAPHT_BWRAP=/nonexistent/bwrap "$bin" bench --suite "$src/suites/cudaeval" --method reference \
  --db "$cache/bench.db" --cache "$cache" 2>&1)
rc=$?
[ $rc -eq 1 ] || { echo "bench: expected exit 1 without a sandbox, got $rc: $out"; exit 1; }
echo "$out" | grep -q "never run unsandboxed" || { echo "bench: no refusal message: $out"; exit 1; }
echo ok
