#!/bin/sh
# content_problems_emulated: every bundled problem checks out and its expert
# solution is *correct* in the CPU emulator on its test cases and its
# timing-size input. `problem check --emulate` alone reports a solution the
# emulator cannot run (not_emulated) without failing; for the bundled
# solutions that would hide a regression, so this gate requires "correct" on
# every one (emulate_test checks the library's result on the test cases).
# Usage: problems_emulated.sh REGRAPHT ROOT
set -u
rg=$1
root=$2
out=$("$rg" problem check --emulate "$root"/problems/*)
rc=$?
printf '%s\n' "$out"
[ "$rc" -eq 0 ] || exit "$rc"
want=$(ls -d "$root"/problems/*/ | wc -l)
got=$(printf '%s\n' "$out" | grep -c '^ok .*solution.cu compiles for [^ ]*, correct in the CPU emulator')
if [ "$got" -ne "$want" ]; then
  echo "problems_emulated: $got of $want bundled solutions correct in the CPU emulator (every one must be)" >&2
  exit 1
fi
