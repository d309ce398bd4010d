#!/bin/sh
# End-to-end check of `regrapht graph ...` on the test trajectory trees.
# Usage: graph_cli_test.sh REGRAPHT_BINARY SOURCE_DIR
set -u
bin=$1
src=$2
trees=$src/src/graph/testdata/trajectories
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# Import the good tree; the result is reproducible byte for byte.
"$bin" graph import "$trees/good" -o "$tmp/g.json" 2>"$tmp/import.log" || fail "import good"
grep -q "imported 2 of 2 trajectories" "$tmp/import.log" || fail "import summary"
grep -q "skipped .*only_problem" "$tmp/import.log" || fail "skipped folder not reported"
"$bin" graph import "$trees/good" -o "$tmp/g2.json" 2>/dev/null || fail "import again"
cmp -s "$tmp/g.json" "$tmp/g2.json" || fail "import is not reproducible"
# The old spelling --out still works for one release, with a warning.
"$bin" graph import "$trees/good" --out "$tmp/g3.json" 2>"$tmp/old.log" || fail "import --out"
cmp -s "$tmp/g.json" "$tmp/g3.json" || fail "import --out wrote something else"
grep -q "warning: --out is deprecated; use -o/--output" "$tmp/old.log" || fail "no deprecation warning"
"$bin" graph import "$trees/good" >/dev/null 2>&1
[ $? -eq 2 ] || fail "import without -o must exit 2"

# Bad folders: named errors, nothing written unless --skip-bad.
if "$bin" graph import "$trees/bad" "$trees/good" -o "$tmp/bad.json" 2>"$tmp/bad.log"; then
  fail "import of bad folders succeeded"
fi
grep -q "kernel_mismatch/trajectory.json: kernel: \"scale\" does not match" "$tmp/bad.log" ||
  fail "bad folder error not named"
[ ! -e "$tmp/bad.json" ] || fail "graph written despite errors"
"$bin" graph import "$trees/bad" "$trees/good" -o "$tmp/bad.json" --skip-bad 2>/dev/null ||
  fail "--skip-bad"
cmp -s "$tmp/g.json" "$tmp/bad.json" || fail "--skip-bad graph differs from the good one"

# Stats, text and JSON.
"$bin" graph stats "$tmp/g.json" >"$tmp/stats.txt" || fail "stats"
grep -q "^examples        5$" "$tmp/stats.txt" || fail "stats examples"
"$bin" graph stats "$tmp/g.json" --json >"$tmp/stats.json" || fail "stats --json"
grep -q '"edges": 4' "$tmp/stats.json" || fail "stats json edges"

# Official format round trip keeps every edge.
"$bin" graph export "$tmp/g.json" --format official -o "$tmp/o.json" 2>/dev/null || fail "export official"
grep -q '"edge"' "$tmp/o.json" || fail "official format"
"$bin" graph export "$tmp/o.json" --from official --format official -o "$tmp/o2.json" 2>/dev/null ||
  fail "re-export official"
cmp -s "$tmp/o.json" "$tmp/o2.json" || fail "official round trip"
"$bin" graph stats "$tmp/o.json" | grep -q "^edges           4 " || fail "official edges lost"

# DOT, and SVG when graphviz is installed.
"$bin" graph show "$tmp/g.json" --format dot -o "$tmp/g.dot" || fail "show dot"
grep -q "n0 -> n1" "$tmp/g.dot" || fail "dot edges"
if command -v dot >/dev/null 2>&1; then
  "$bin" graph show "$tmp/g.json" --format svg -o "$tmp/g.svg" || fail "show svg"
  grep -q "<svg" "$tmp/g.svg" || fail "svg output"
  "$bin" graph show "$tmp/g.json" --format png -o "$tmp/g.png" || fail "show png"
  head -c 8 "$tmp/g.png" | od -An -c | grep -q "P   N   G" || fail "png output is not a PNG"
fi
# Pruning: --top 1 keeps the busiest transition and the nodes it touches; edge width by examples.
"$bin" graph show "$tmp/g.json" --format dot --top 1 >"$tmp/top.dot" || fail "show --top"
[ "$(grep -c -- '->' "$tmp/top.dot")" -eq 1 ] || fail "--top 1 kept $(grep -c -- '->' "$tmp/top.dot") edges"
grep -q "penwidth=" "$tmp/top.dot" || fail "no edge widths"
"$bin" graph show "$tmp/g.json" --format dot --min-examples 1000 >"$tmp/none.dot" || fail "show --min-examples"
[ "$(grep -c -- '->' "$tmp/none.dot")" -eq 0 ] || fail "--min-examples 1000 kept edges"
"$bin" graph export "$tmp/g.json" --format native --top 1 -o "$tmp/top.json" 2>/dev/null || fail "export --top"
"$bin" graph stats "$tmp/top.json" | grep -q "^edges           1 " || fail "export --top 1 kept more than 1 edge"

# Without a graph, show draws the shipped one; by default its 20 strongest transitions, with a
# legend saying what was left out (the whole graph is a hairball), --top 0 all of them; the format
# follows -o's extension.
"$bin" graph show >"$tmp/shipped.dot" 2>"$tmp/shipped.err" || fail "graph show without a graph: $(cat "$tmp/shipped.err")"
[ "$(grep -c -- '->' "$tmp/shipped.dot")" -eq 20 ] || fail "graph show kept $(grep -c -- '->' "$tmp/shipped.dot") edges, not 20"
grep -q 'label="Showing the 20 of [0-9]* transitions with the most examples' "$tmp/shipped.dot" ||
  fail "the drawing has no legend of what was left out"
grep -q "^Left out: [0-9]* transitions" "$tmp/shipped.err" || fail "graph show does not say what it left out"
all=$("$bin" graph stats | sed -n 's/^edges *\([0-9]*\).*/\1/p')
"$bin" graph show --top 0 2>/dev/null | grep -c -- '->' | grep -qx "$all" || fail "--top 0 does not draw all $all edges"
if command -v dot >/dev/null 2>&1; then
  "$bin" graph show -o "$tmp/shipped.svg" 2>/dev/null || fail "graph show -o x.svg"
  grep -q "<svg" "$tmp/shipped.svg" || fail "-o x.svg did not write SVG"
fi

# The techniques doc is what the binary generates.
"$bin" graph techniques >"$tmp/techniques.md" || fail "techniques"
cmp -s "$tmp/techniques.md" "$src/docs/techniques.md" || fail "docs/techniques.md is stale"
"$bin" graph relabel "Use shared memory tiling" | grep -q "matched shared_memory_tiling" ||
  fail "relabel"

# Usage errors.
"$bin" graph show "$tmp/g.json" --format gif >/dev/null 2>&1 && fail "bad --format accepted"
"$bin" graph stats "$tmp/missing.json" 2>/dev/null && fail "missing graph accepted"
echo "graph_cli_test: ok"
