#!/bin/sh
# cmake --install into a temporary prefix, then the installed binary, run
# from another folder, finds its data under PREFIX/share/regrapht (version,
# simulate's default graph, an installed problem checked and its reference
# built and run), REGRAPHT_DATA_DIR wins
# over it, and the completions are where bash, zsh and fish look.
#   install_test.sh BUILD_DIR SOURCE_DIR
set -eu
BUILD=$1
SRC=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
P=$T/prefix
cmake --install "$BUILD" --prefix "$P" >"$T/install.log" 2>&1 || { cat "$T/install.log"; echo "FAIL: cmake --install"; exit 1; }
RG=$P/bin/regrapht
D=$P/share/regrapht
fail() { echo "FAIL: $*"; exit 1; }
for f in "$RG" "$D/taxonomy.json" "$D/models.json" "$D/graph/regrapht.json" "$D/prompts/step.txt" \
         "$D/problems/saxpy/problem.json" "$D/suites/cudaeval/suite.json" "$D/examples/saxpy.cpp" \
         "$P/share/bash-completion/completions/regrapht" "$P/share/zsh/site-functions/_regrapht" \
         "$P/share/fish/vendor_completions.d/regrapht.fish"; do
  [ -e "$f" ] || fail "not installed: $f"
done
[ ! -e "$D/trajectories" ] || fail "data/trajectories (developer data) was installed"
mkdir "$T/elsewhere" && cd "$T/elsewhere"
# json FILE EXPR: evaluates a Python expression on the JSON document in FILE (as j).
json() { python3 -c "import json,sys; j=json.load(open(sys.argv[1])); sys.exit(0 if ($2) else 1)" "$1"; }

"$RG" version --json >v.json || fail "installed regrapht version exited $?"
json v.json "j['data_dir'] == '$D'" || fail "data_dir is not $D: $(cat v.json)"
"$RG" simulate --budgets 2 --problems 2 --methods best-of-n --json >s.json || fail "simulate exited $?"
json s.json "j['graph'] == '$D/graph/regrapht.json' and len(j['rows']) == 1" || fail "simulate's graph: $(cat s.json)"
"$RG" graph stats --json "$D/graph/regrapht.json" >g.json || fail "graph stats exited $?"
json g.json "j['nodes'] > 1" || fail "graph stats: $(head -c 300 g.json)"
"$RG" problem check --no-build --json "$D/problems/saxpy" >p.json || fail "problem check exited $?"
json p.json "j['failed'] == 0 and j['problems'][0]['ok']" || fail "problem check: $(cat p.json)"
"$RG" optimize --help >/dev/null || fail "optimize --help"
# Real work from the prefix: the installed problem's reference built (the driver is compiled in) and checked.
REGRAPHT_CACHE_DIR=$T/cache "$RG" verify --json --reference-only --no-timing --problem "$D/problems/saxpy" >r.json ||
  fail "verify --reference-only of the installed saxpy exited $?"
json r.json "j['reference'] == 'ok'" || fail "verify --reference-only: $(cat r.json)"

# REGRAPHT_DATA_DIR wins over the prefix.
mkdir -p "$T/other/graph"
cp "$D/taxonomy.json" "$T/other/"
cp "$D/graph/regrapht.json" "$T/other/graph/"
REGRAPHT_DATA_DIR=$T/other "$RG" version --json >v2.json
json v2.json "j['data_dir'] == '$T/other'" || fail "REGRAPHT_DATA_DIR did not win: $(cat v2.json)"
REGRAPHT_DATA_DIR=$T/other "$RG" simulate --budgets 2 --problems 2 --methods best-of-n --json >s2.json
json s2.json "j['graph'] == '$T/other/graph/regrapht.json'" || fail "simulate ignored REGRAPHT_DATA_DIR: $(cat s2.json)"
# And an empty one is an error naming the file, not a silent fallback.
mkdir "$T/empty"
if REGRAPHT_DATA_DIR=$T/empty "$RG" simulate --budgets 2 --problems 2 --json >/dev/null 2>err.txt; then
  fail "simulate with an empty REGRAPHT_DATA_DIR succeeded"
fi
grep -q "$T/empty/graph/regrapht.json" err.txt || fail "the error does not name the missing graph: $(cat err.txt)"

# The build tree's binary still finds the source tree's data.
"$BUILD/src/cli/regrapht" version --json >b.json
json b.json "j['data_dir'] == '$(cd "$SRC" && pwd -P)/data'" || fail "the build tree's data_dir: $(cat b.json)"
echo "install_test: ok"
