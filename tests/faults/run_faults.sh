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
#                 sh: COMMAND       instead of run: a shell command (sh -c)
#                                   with $RG (regrapht), $IN, $WORK, $ROOT,
#                                   for what needs a wrapper (a signal, a
#                                   read-only mount, a pipe); exit 77 skips
#                                   the case where the wrapper cannot work
#                                   (no user namespaces), said as skipped
#                 env: NAME=VALUE   (repeatable) set for the command
#                 exit: N           the expected exit status
#                 expect: TEXT      text the output must contain (repeatable)
#                 absent: TEXT      text the output must not contain (repeatable)
#                 check: COMMAND    (repeatable) a shell command run in {in}
#                                   afterwards that must succeed: nothing was
#                                   lost or clobbered (a link still a link, no
#                                   output database left behind)
#   setup.sh    (optional) run in {in} before the command (what git cannot
#               hold: links, FIFOs, sparse files, damaged databases, large
#               generated graphs)
#   any other   copied over {in}
#
# Each case counts as a clear error (the expected status and text), an
# internal error ("internal error" in the output, or killed by a signal), a
# hang (over the time limit), a silent acceptance (exit 0 where an error was
# expected), a loss (a check: failed) or unclear (another status or message).
# The last line is the tally; the test fails unless every case is as expected.
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
tried=0 clear=0 internal=0 hangs=0 silent=0 lost=0 wrong=0 skipped=0
subst() { sed "s|{in}|$in|g; s|{work}|$work|g; s|{root}|$root|g"; }
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
    (cd "$in" && RG="$rg" ROOT="$root" WORK="$work" sh "$dir/setup.sh") > "$work/setup.log" 2>&1 || {
      echo "FAIL $name: setup.sh failed:"; sed 's/^/    /' "$work/setup.log"; wrong=$((wrong + 1)); continue; }
  fi
  args=$(sed -n 's/^run: //p' "$manifest" | subst)
  shcmd=$(sed -n 's/^sh: //p' "$manifest" | subst)
  want=$(sed -n 's/^exit: //p' "$manifest")
  envs=$(sed -n 's/^env: //p' "$manifest" | subst)
  if [ -n "$shcmd" ]; then
    # shellcheck disable=SC2086
    (cd "$in" && env $envs RG="$rg" IN="$in" WORK="$work" ROOT="$root" timeout -k 5 "$limit" sh -c "$shcmd") \
      > "$work/out" 2>&1
  else
    # shellcheck disable=SC2086
    env $envs timeout -k 5 "$limit" "$rg" $args > "$work/out" 2>&1
  fi
  rc=$?
  failed_checks=""
  while IFS= read -r check; do
    [ -n "$check" ] || continue
    (cd "$in" && RG="$rg" IN="$in" WORK="$work" ROOT="$root" sh -c "$check") > /dev/null 2>&1 || failed_checks="$failed_checks
    check failed: $check"
  done <<CHECKS
$(sed -n 's/^check: //p' "$manifest" | subst)
CHECKS
  missing=""
  while IFS= read -r line; do
    [ -n "$line" ] || continue
    text=$(printf '%s' "$line" | subst)
    grep -qF -- "$text" "$work/out" || missing="$missing
    missing: $text"
  done <<EXPECT
$(sed -n 's/^expect: //p' "$manifest")
EXPECT
  while IFS= read -r line; do
    [ -n "$line" ] || continue
    text=$(printf '%s' "$line" | subst)
    ! grep -qF -- "$text" "$work/out" || missing="$missing
    present, but must not be: $text"
  done <<ABSENT
$(sed -n 's/^absent: //p' "$manifest")
ABSENT
  if [ -n "$shcmd" ] && [ $rc -eq 77 ] && [ "$want" != 77 ]; then
    echo "skip $name: $(tail -n 1 "$work/out")"; skipped=$((skipped + 1)); tried=$((tried - 1)); continue
  fi
  if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
    verdict="HANG (over ${limit} s)"; hangs=$((hangs + 1))
  elif [ $rc -gt 128 ] && [ "$rc" != "$want" ] || grep -q "internal error" "$work/out"; then
    verdict="INTERNAL ERROR (exit $rc)"; internal=$((internal + 1))
  elif [ -n "$failed_checks" ]; then
    verdict="LOST (exit $rc)$failed_checks"; lost=$((lost + 1))
  elif [ "$rc" = 0 ] && [ "$want" != 0 ]; then
    verdict="SILENT (exit 0, expected $want)"; silent=$((silent + 1))
  elif [ "$rc" != "$want" ] || [ -n "$missing" ]; then
    verdict="UNCLEAR (exit $rc, expected $want)$missing"; wrong=$((wrong + 1))
  else
    echo "ok   $name"; clear=$((clear + 1)); continue
  fi
  echo "FAIL $name: $verdict"
  sed 's/^/    | /' "$work/out" | head -20
done
extra=""
[ $skipped -gt 0 ] && extra=" ($skipped skipped: what they need is missing here)"
echo "fault suite: $tried tried / $clear clear / $internal internal / $hangs hangs / $silent silent / $lost lost / $wrong unclear$extra"
[ $((internal + hangs + silent + lost + wrong)) -eq 0 ]
