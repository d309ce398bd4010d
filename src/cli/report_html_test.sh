#!/bin/sh
# `report --format html`, `report --per-problem` and `tree show` through the
# CLI, on a fixed database (report_fixture_db) and a fixed optimize report
# (testdata/tree/report.json): the pages parse, load nothing, and hold the
# expected tables and figures (html_check.py); the per-problem CSV and JSON
# leave unmeasured speeds empty / null.
# Usage: report_html_test.sh REGRAPHT_BINARY REPORT_FIXTURE_DB SOURCE_DIR
set -u
bin=$1
fixture=$2
src=$3
command -v python3 >/dev/null 2>&1 || { echo "python3 not found: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
check="python3 $src/src/cli/html_check.py"

"$fixture" "$tmp/r.db" || fail "report_fixture_db"
"$bin" report --db "$tmp/r.db" --format html --k 1,2 -o "$tmp/report.html" 2>"$tmp/err.txt" ||
  fail "report --format html: $(cat "$tmp/err.txt")"
grep -q "report written to $tmp/report.html" "$tmp/err.txt" || fail "no 'written' note"
$check "$tmp/report.html" \
  --id metrics-cudaeval:table:4 --id tiers-cudaeval:table:4 --id problems-cudaeval:table:12 \
  --id metrics-pareval:table:1 --id problems-pareval:table:2 --id environments:table:2 \
  --id speedups-cudaeval:figure --id pass-at-k-cudaeval:figure --id budget-pass-cudaeval:figure \
  --count circle.dot:10 --count details.source:20 --count svg:8 || fail "report.html structure"
# Without -o the page goes to stdout, the same page.
"$bin" report --db "$tmp/r.db" --format html --k 1,2 >"$tmp/stdout.html" || fail "report html to stdout"
cmp -s "$tmp/stdout.html" "$tmp/report.html" || fail "stdout and -o differ"

# --per-problem in md, csv and json.
"$bin" report --db "$tmp/r.db" --per-problem >"$tmp/pp.md" || fail "--per-problem md"
grep -q '^| cudaeval | saxpy | easy | reference | - | 1 | solved | 1 | 10.00x | gpu-timed |' "$tmp/pp.md" ||
  fail "per-problem md: $(head -5 "$tmp/pp.md")"
"$bin" report --db "$tmp/r.db" --per-problem --format csv >"$tmp/pp.csv" || fail "--per-problem csv"
[ "$(wc -l <"$tmp/pp.csv")" -eq 15 ] || fail "per-problem csv: $(wc -l <"$tmp/pp.csv") lines, expected 15"
"$bin" report --db "$tmp/r.db" --per-problem --format json >"$tmp/pp.json" || fail "--per-problem json"
python3 - "$tmp/pp.json" <<'PY' || fail "per-problem json"
import json, sys
rows = json.load(open(sys.argv[1]))
assert len(rows) == 14, len(rows)
emu = [r for r in rows if r["problem"] == "bfs" and r["verdict"] == "solved" and r["best_evidence"] == "emulated"]
assert emu and emu[0]["best_speedup"] is None, emu
co = [r for r in rows if r["verdict"] == "compiled_only"]
assert co and co[0]["best_speedup"] is None and co[0]["evidence"]["compiled-only"] == 1, co
PY
# The page always holds the per-problem table: --per-problem with html is that page (it was an error,
# exit 1, once).
"$bin" report --db "$tmp/r.db" --per-problem --format html >"$tmp/pp.html" || fail "--per-problem --format html exited $?"
"$bin" report --db "$tmp/r.db" --format html | cmp -s - "$tmp/pp.html" ||
  fail "--per-problem --format html is not the html report"

# tree show: the page and the SVG of a fixed optimize report.
"$bin" tree show "$src/src/cli/testdata/tree/report.json" -o "$tmp/tree.html" 2>/dev/null || fail "tree show html"
$check "$tmp/tree.html" --id summary:table --id path:table:3 --id tree:figure --id attempt-0:section \
  --id attempt-5:section --id environment:table --count g.node:7 --count path.best:3 --count details.diff:6 ||
  fail "tree.html structure"
"$bin" tree show "$src/src/cli/testdata/tree/report.json" --format svg >"$tmp/tree.svg" || fail "tree show svg"
head -1 "$tmp/tree.svg" | grep -q '^<?xml' || fail "tree.svg has no XML declaration"
python3 -c "import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])" "$tmp/tree.svg" ||
  fail "tree.svg is not well-formed XML"
# A file that is not an optimize report: a clear error naming it, exit 1.
echo '{"suite": "x"}' >"$tmp/bad.json"
"$bin" tree show "$tmp/bad.json" >/dev/null 2>"$tmp/err.txt"
[ $? -eq 1 ] || fail "tree show on a non-report must exit 1"
grep -q "bad.json" "$tmp/err.txt" && grep -q "attempts" "$tmp/err.txt" || fail "error: $(cat "$tmp/err.txt")"
echo ok
