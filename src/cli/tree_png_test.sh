#!/bin/sh
# `regrapht tree show REPORT --format png` on a fixed optimize report
# (testdata/tree/report.json): a PNG that is not blank (png_nonblank.py), to
# a file and to stdout; a non-report is an error. The PNG comes from graphviz
# `dot` (scripts/install-deps.sh installs it): where it is absent the test
# exits 77 (Skipped) after checking the error names graphviz.
# Usage: tree_png_test.sh REGRAPHT_BINARY SOURCE_DIR
set -u
bin=$1
src=$2
. "$(dirname "$0")/scratch.sh"
report="$src/src/cli/testdata/tree/report.json"
if ! command -v dot >/dev/null 2>&1; then
  "$bin" tree show "$report" --format png -o "$tmp/tree.png" 2>"$tmp/err.txt" && fail "png without graphviz succeeded"
  grep -q "graphviz" "$tmp/err.txt" || fail "the error does not name graphviz"
  echo "SKIP: graphviz dot is not installed (scripts/install-deps.sh installs it)"
  exit 77
fi
"$bin" tree show "$report" --format png -o "$tmp/tree.png" 2>"$tmp/err.txt" || fail "tree show png exited $?"
python3 "$src/src/cli/png_nonblank.py" "$tmp/tree.png" >"$tmp/check.txt" 2>&1 || fail "the PNG is blank or not a PNG"
# Sized to read: 144 dpi, so its 10-point labels are 20 pixels high (at graphviz's 96 dpi this tree
# was 860 px wide and its labels 13 px).
width=$(python3 -c 'import struct,sys; print(struct.unpack(">I", open(sys.argv[1],"rb").read()[16:20])[0])' "$tmp/tree.png")
[ "$width" -ge 1200 ] || fail "the PNG is $width px wide: too small to read"
"$bin" tree show "$report" --format png >"$tmp/stdout.png" 2>"$tmp/err2.txt" || fail "tree show png to stdout exited $?"
cmp -s "$tmp/tree.png" "$tmp/stdout.png" || fail "the PNG on stdout differs from the file"
echo '{"not": "a report"}' >"$tmp/bad.json"
"$bin" tree show "$tmp/bad.json" --format png >/dev/null 2>"$tmp/err3.txt"
[ $? -eq 1 ] || fail "tree show png on a non-report must exit 1"
grep -q "attempts" "$tmp/err3.txt" || fail "the error does not name the missing field"
echo "ok"
