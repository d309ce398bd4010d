#!/bin/sh
# Libraries export only their own headers (regrapht_library, cmake/RegraphtHelpers.cmake):
# with the include path regrapht_store compiles with (the arguments after the compiler), its
# own headers and those of the libraries it links compile, and a header of a library it does
# not link (graph) is not found.
set -eu
CXX=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '#include "store/results_store.h"\n#include "core/strings.h"\n#include "regrapht/status.h"\n' \
  > "$tmp/own.cc"
"$CXX" -std=c++20 -fsyntax-only "$@" "$tmp/own.cc"
printf '#include "graph/graph_json.h"\n' > "$tmp/other.cc"
if "$CXX" -std=c++20 -fsyntax-only "$@" "$tmp/other.cc" 2> "$tmp/err"; then
  echo "FAIL: regrapht_store can include graph/graph_json.h without linking regrapht_graph"
  exit 1
fi
cat "$tmp/err"
grep -q 'graph/graph_json.h: No such file' "$tmp/err"
echo "include_roots_test: ok"
