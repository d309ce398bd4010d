#!/usr/bin/env bash
# Rebuilds the shipped reasoning graph from the authored trajectories.
#   scripts/build-graph.sh           writes data/graph/regrapht.json and docs/graph.svg
#   scripts/build-graph.sh --check   rebuilds into a temp dir; fails if the committed graph
#                                    differs byte for byte or misses issue 7's targets
# Verification records stored in each trajectory.json (written by
# `graph import --verify full --write-records` on a GPU) are carried onto the
# examples; steps recorded as failing are cut, never kept as good examples.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${REGRAPHT_BIN:-build/regrapht}
check=0
[ "${1:-}" = "--check" ] && check=1
out=data/graph/regrapht.json
if [ $check = 1 ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  out=$tmp/regrapht.json
fi
"$BIN" graph import data/trajectories --unknown reject -o "$out"
if [ $check = 0 ]; then
  # The 30 busiest transitions: the whole graph (180+ edges) does not read as a picture.
  "$BIN" graph show "$out" --format svg --top 30 -o docs/graph.svg
  "$BIN" graph stats "$out"
  exit 0
fi
if ! cmp -s "$out" data/graph/regrapht.json; then
  echo "build-graph: data/graph/regrapht.json is not what data/trajectories builds; run scripts/build-graph.sh and commit" >&2
  diff <(head -c 2000 data/graph/regrapht.json) <(head -c 2000 "$out") | head -20 >&2 || true
  exit 1
fi
# Issue 7's targets: >= 15 technique nodes, >= 60 edges, median >= 3 examples per edge.
"$BIN" graph stats "$out" --json -o "$tmp/stats.json"
python3 - "$tmp/stats.json" "${REGRAPHT_GRAPH_MIN_MEDIAN:-3}" <<'PY'
import json, sys
s = json.load(open(sys.argv[1])); want_median = float(sys.argv[2])
checks = [("technique nodes", s["technique_nodes"], 15), ("edges", s["edges"], 60),
          ("median examples per edge", s["examples_per_edge"]["median"], want_median)]
bad = [f"{name} {got} < {want}" for name, got, want in checks if got < want]
print("build-graph: " + ", ".join(f"{n} {g}" for n, g, _ in checks))
if bad:
    sys.exit("build-graph: targets missed: " + "; ".join(bad))
PY
echo "build-graph: committed graph is reproducible"
