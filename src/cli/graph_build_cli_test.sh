#!/bin/sh
# End-to-end check of `regrapht graph build` against a canned OpenAI-compatible
# server (fake_openai_server.py): two bundled problems whose canned steps
# really compile (nvcc, no GPU needed) and one kernel whose reply has no code.
# Usage: graph_build_cli_test.sh REGRAPHT_BINARY SOURCE_DIR
set -u
bin=$1
src=$2
. "$src/src/cli/fake_server.sh"
start_fake_server "$src/src/cli/testdata/graph_build" "$tmp/down"

cat >"$tmp/kernels.txt" <<LIST
# two bundled problems and a kernel the model has no answer for
$src/problems/saxpy
$src/problems/sum_of_squares   # its third step does not compile
$src/data/trajectories/any_negative
LIST

build() {  # build OUT [flags...]
  out=$1
  shift
  "$bin" graph build --endpoint "$endpoint" --model-name test-model --kernels "$tmp/kernels.txt" \
    -o "$out" --verify compile --arch sm_90 --jobs 2 "$@"
}

build "$tmp/g.json" --save-trajectories "$tmp/saved" >"$tmp/summary.txt" 2>"$tmp/build.log" ||
  fail "graph build"
grep -Eq '^saxpy +accepted +2 +2 +2$' "$tmp/summary.txt" || fail "saxpy not accepted"
grep -Eq '^sum_of_squares +cut +3 +2 +2 +step 3 \(loop_unrolling\): did not compile' "$tmp/summary.txt" ||
  fail "sum_of_squares not cut at step 3"
grep -Eq '^any_negative +rejected +0 +0 +0 +no code found: ' "$tmp/summary.txt" ||
  fail "any_negative not rejected for want of code"
grep -q '^3 kernels: 1 accepted, 1 cut, 1 rejected (1 no code found)$' "$tmp/summary.txt" ||
  fail "summary totals"
grep -q '^graph: 4 nodes, 3 edges, 4 examples (4 added by these kernels)$' "$tmp/summary.txt" ||
  fail "summary graph line"
# The step the taxonomy's names could not place went to the model.
grep -q 'sum_of_squares: steps\[1\] "Lane-to-lane exchange tree": matched warp_shuffle_reduction by another relabeler' \
  "$tmp/build.log" || fail "LLM relabel not used or not reported"
grep -q '^relabel$' "$tmp/requests.log" || fail "no relabel request"
[ ! -e "$tmp/g.json.state" ] || fail "state file left after a finished build"

# The graph: every kept step compiled, and records say so.
"$bin" graph stats "$tmp/g.json" >"$tmp/stats.txt" || fail "stats"
grep -q "^examples        4$" "$tmp/stats.txt" || fail "graph examples"
grep -q '"technique": "warp_shuffle_reduction"' "$tmp/g.json" || fail "relabelled node missing"
[ "$(grep -c '"compiled": true' "$tmp/g.json")" -eq 4 ] || fail "verification records"

# Saved trajectories re-import with `graph import`.
"$bin" graph import "$tmp/saved" -o "$tmp/reimported.json" 2>"$tmp/import.log" ||
  fail "re-import of saved trajectories"
grep -q "imported 2 of 2 trajectories" "$tmp/import.log" || fail "re-import summary"

# A second run is answered from the response cache and gives the same bytes.
asked=$(grep -c '^trajectory' "$tmp/requests.log")
build "$tmp/g2.json" --quiet >/dev/null 2>"$tmp/build2.log" || fail "second build"
[ "$(grep -c '^trajectory' "$tmp/requests.log")" -eq "$asked" ] || fail "response cache not used"
cmp -s "$tmp/g.json" "$tmp/g2.json" || fail "the same build gave a different graph"

# An endpoint failure stops the build (resumably) and writes no graph; --resume
# then asks only for the unfinished kernels and ends with the same graph.
echo sumOfSquares >"$tmp/down"
build "$tmp/g4.json" --no-cache --max-endpoint-errors 1 --checkpoint-every 1 >"$tmp/stopped.txt" \
  2>"$tmp/stopped.log" && fail "build went on through an endpoint failure"
grep -q "rerun with --resume" "$tmp/stopped.log" || fail "no resume hint"
[ -e "$tmp/g4.json" ] && fail "graph written by a stopped build"
[ -s "$tmp/g4.json.state" ] || fail "no state file after a stop"
rm "$tmp/down"
saxpy_asked=$(grep -c '^trajectory saxpy$' "$tmp/requests.log")
build "$tmp/g4.json" --no-cache --resume >"$tmp/resumed.txt" 2>"$tmp/resumed.log" || fail "resume"
[ "$(grep -c '^trajectory saxpy$' "$tmp/requests.log")" -eq "$saxpy_asked" ] ||
  fail "resume asked again for a finished kernel"
grep -q '^finished before the resume: 1 of these kernels$' "$tmp/resumed.txt" || fail "resume summary"
cmp -s "$tmp/g.json" "$tmp/g4.json" || fail "the resumed build differs from the uninterrupted one"
[ ! -e "$tmp/g4.json.state" ] || fail "state file left after the resumed build finished"

# An unfinished build's state is not overwritten without --resume.
echo '{}' >"$tmp/g3.json.state"
build "$tmp/g3.json" >/dev/null 2>"$tmp/refused.log" && fail "existing state overwritten"
grep -q "pass --resume to continue it" "$tmp/refused.log" || fail "state refusal message"

# Kernel-list errors name the file and line.
printf '%s\n\n%s\n' "$src/problems/saxpy" "$tmp/no_such_kernel" >"$tmp/bad_kernels.txt"
"$bin" graph build --endpoint "$endpoint" --model test-model --kernels "$tmp/bad_kernels.txt" \
  -o "$tmp/bad.json" 2>"$tmp/bad.log" && fail "bad kernel list accepted"
grep -q "bad_kernels.txt:3: .*no_such_kernel: no such folder" "$tmp/bad.log" || fail "list error not located"
# The old spelling (--model NAME with --endpoint) still works, with a warning.
grep -q "warning: graph build --endpoint URL --model NAME is deprecated; use --model-name NAME" "$tmp/bad.log" ||
  fail "no deprecation warning for --model NAME"
echo "graph_build_cli_test: ok"
