#!/bin/sh
# The fault suite: bad inputs kept as data (tests/faults/cases/<case>/), each
# run through the CLI and checked for its exact refusal. Adding a case is
# adding a folder (docs/faults.md):
#
#   case        the manifest, "key: value" lines:
#                 base: PATH        (optional) a folder of the source tree
#                                   copied to {in} first
#                 run: ARGS         regrapht's arguments; {in} the case's
#                                   input folder, {work} a scratch folder,
#                                   {root} the source tree
#                 exit: N           the expected exit status
#                 expect: TEXT      text the output must contain (repeatable)
#   setup.sh    (optional) run in {in} before the command: links, FIFOs,
#               sparse files, damaged databases (what git cannot hold)
#   any other   copied over {in}
#
# Each case counts as a clear error (the expected status and text), a crash or
# hang (killed by a signal, "internal error", or over the time limit), a silent
# acceptance (exit 0 where an error was expected) or a wrong answer. The last
# line is the tally; the test fails unless every case is as expected.
#
# Usage: run_faults.sh REGRAPHT ROOT [CASE...]
set -u
rg=$1
root=$2
shift 2
limit=${REGRAPHT_FAULT_TIMEOUT:-120}
cases_dir="$root/tests/faults/cases"
if [ $# -gt 0 ]; then names="$*"; else names=$(ls "$cases_dir"); fi
scratch=$(mktemp -d "${TMPDIR:-/tmp}/rg-faults.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
export REGRAPHT_CACHE_DIR="${REGRAPHT_CACHE_DIR:-$scratch/cache}"
tried=0 clear=0 crashed=0 silent=0 wrong=0
for name in $names; do
  dir="$cases_dir/$name"
  manifest="$dir/case"
  [ -f "$manifest" ] || { echo "FAIL $name: no case file"; wrong=$((wrong + 1)); continue; }
  tried=$((tried + 1))
  work="$scratch/$name"
  mkdir -p "$work"
  base=$(sed -n 's/^base: //p' "$manifest")
  if [ -n "$base" ]; then
    in="$work/$(basename "$base")"
    cp -R "$root/$base" "$in"
  else
    in="$work/in"
    mkdir -p "$in"
  fi
  for f in "$dir"/* "$dir"/.[!.]*; do
    [ -e "$f" ] || continue
    case $(basename "$f") in case|setup.sh) continue ;; esac
    cp -R "$f" "$in/"
  done
  if [ -f "$dir/setup.sh" ]; then
    (cd "$in" && ROOT="$root" WORK="$work" sh "$dir/setup.sh") > "$work/setup.log" 2>&1 || {
      echo "FAIL $name: setup.sh failed:"; sed 's/^/    /' "$work/setup.log"; wrong=$((wrong + 1)); continue; }
  fi
  args=$(sed -n 's/^run: //p' "$manifest" | sed "s|{in}|$in|g; s|{work}|$work|g; s|{root}|$root|g")
  want=$(sed -n 's/^exit: //p' "$manifest")
  # shellcheck disable=SC2086
  timeout -k 5 "$limit" "$rg" $args > "$work/out" 2>&1
  rc=$?
  missing=""
  while IFS= read -r line; do
    text=$(printf '%s' "$line" | sed "s|{in}|$in|g; s|{work}|$work|g; s|{root}|$root|g")
    grep -qF -- "$text" "$work/out" || missing="$missing
    missing: $text"
  done <<EXPECT
$(sed -n 's/^expect: //p' "$manifest")
EXPECT
  if [ $rc -ge 124 ] || grep -q "internal error" "$work/out"; then
    verdict="CRASH/HANG (exit $rc)"; crashed=$((crashed + 1))
  elif [ "$rc" = 0 ] && [ "$want" != 0 ]; then
    verdict="SILENT (exit 0, expected $want)"; silent=$((silent + 1))
  elif [ "$rc" != "$want" ] || [ -n "$missing" ]; then
    verdict="WRONG (exit $rc, expected $want)$missing"; wrong=$((wrong + 1))
  else
    echo "ok   $name"; clear=$((clear + 1)); continue
  fi
  echo "FAIL $name: $verdict"
  sed 's/^/    | /' "$work/out" | head -20
done
echo "fault suite: $tried bad inputs tried: $clear clear errors, $crashed crashes/hangs, $silent silent acceptances, $wrong wrong"
[ $((crashed + silent + wrong)) -eq 0 ]
