#!/bin/sh
# `regrapht optimize` on functions whose spec cannot be inferred: the
# problem-folder template is written (problem.json with the values to write
# marked, reference.cpp, description.md), the message names the file and the
# fields, `problem check` names an unwritten value, and once a scripted edit
# writes the lengths `problem check` passes (the reference builds and runs).
# A struct from a header gets its template too. No model is loaded: the
# refusal comes before the search. docs/inference.md.
# Usage: infer_template_test.sh REGRAPHT_BINARY
set -u
bin=$1
. "$(dirname "$0")/scratch.sh"
export REGRAPHT_CACHE_DIR="$tmp/cache"
cd "$tmp" || exit 1

cat >add2d.cpp <<'CPP'
// b += a for rows x cols matrices, row-major, as one flat loop (the
// subscripts do not tell the lengths).
void add2d(int rows, int cols, const float* a, float* b) {
  for (int i = 0; i < rows * cols; ++i) b[i] += a[i];
}
CPP
"$bin" optimize add2d.cpp --function add2d >out.txt 2>err.txt
rc=$?
[ $rc -eq 1 ] || fail "optimize on a two-size function exited $rc, not 1"
dir=add2d.regrapht.problem
for f in problem.json reference.cpp description.md; do [ -f "$dir/$f" ] || fail "no $dir/$f"; done
cmp -s add2d.cpp "$dir/reference.cpp" || fail "reference.cpp is not the source"
grep -q "several size parameters (rows, cols)" err.txt || fail "the reason is not given"
grep -q "edit $dir/problem.json (the values starting with \"FILL IN: \": args\[2\].length, args\[3\].length)" err.txt ||
  fail "the message does not name the file and the fields"
grep -q "regrapht problem check $dir" err.txt || fail "the message does not say how to check"
grep -q -- "--spec $dir/problem.json" err.txt || fail "the message does not say how to go on"
# Timing from the product of the sizes: 1024 x 1024, not 2^20 each.
tr -d ' \n' <"$dir/problem.json" | grep -q '"timing":{"sizes":{"rows":1024,"cols":1024}' ||
  fail "timing sizes are not 1024 x 1024"

"$bin" problem check "$dir" >check1.txt 2>&1 && fail "problem check passed an unwritten template"
grep -q "args\[2\].length: still a template value" check1.txt || fail "problem check does not name the unwritten value"

# The marker starts only the values to write (the notes name it, never after a quote): a sed over
# every marked value leaves valid JSON.
grep -c '"FILL IN: ' "$dir/problem.json" | grep -q '^2$' || fail "the marker is not on exactly the two values to write"
sed 's/"FILL IN: [^"]*"/"x"/g' "$dir/problem.json" | python3 -c 'import json,sys; json.load(sys.stdin)' ||
  fail "the documented sed over the marked values leaves invalid JSON"
sed 's/"FILL IN: length of [^"]*"/"rows*cols"/' "$dir/problem.json" >p.json && mv p.json "$dir/problem.json"
"$bin" problem check "$dir" >check2.txt 2>&1 || fail "problem check on the written template exited $?"
grep -q "^ok    $dir" check2.txt || fail "problem check did not say ok"

# A struct the source does not define (it comes from a header).
cat >ke.cpp <<'CPP'
#include "particle.h"
void ke(int n, const Particle *p, float *out) {
  for (int i = 0; i < n; ++i) out[i] = 0.5f * p[i].m * p[i].v * p[i].v;
}
CPP
"$bin" optimize ke.cpp --function ke >out2.txt 2>err2.txt
rc=$?
[ $rc -eq 1 ] || fail "optimize on an unknown struct exited $rc, not 1"
grep -q "struct Particle is not defined in the source" err2.txt || fail "the struct reason is not given"
grep -q "structs\[0\].fields" err2.txt || fail "the struct's fields are not named"
grep -q '"name": "Particle"' ke.regrapht.problem/problem.json || fail "the template does not list the struct"
if grep -q 'Particle\*p' err2.txt out2.txt ke.regrapht.problem/problem.json; then fail "printed 'Particle*p'"; fi
echo "ok"
