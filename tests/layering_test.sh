#!/bin/sh
# The layering check passes on the checkout, and fails, naming file and line,
# on a copy of its rules with an include against the order, a CMake DEPS
# against it, a stale exception and a command that includes a library's
# internal header.
set -eu
ROOT=$1
python3 "$ROOT/scripts/check-layering.py" --root "$ROOT"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/docs" "$tmp/src/core" "$tmp/src/verify" "$tmp/src/search" "$tmp/src/cli"
cp "$ROOT/docs/architecture.md" "$tmp/docs/"
printf '// c\n' > "$tmp/src/core/c.h"
printf '// s\n' > "$tmp/src/search/s.h"
printf '#include "core/c.h"\n#include "search/s.h"\n' > "$tmp/src/verify/v.cc"
printf '#include "regrapht/status.h"\n#include "core/c.h"\n' > "$tmp/src/cli/commands_x.cc"
printf 'regrapht_library(NAME regrapht_verify SOURCES v.cc DEPS regrapht_search regrapht_core)\n' \
  > "$tmp/src/verify/CMakeLists.txt"
if python3 "$ROOT/scripts/check-layering.py" --root "$tmp" 2> "$tmp/err"; then
  echo "FAIL: the check passed a tree with an include against the order"; exit 1
fi
cat "$tmp/err"
grep -q 'src/verify/v.cc:2: verify includes search/s.h (search)' "$tmp/err"
grep -q 'regrapht_verify links regrapht_search' "$tmp/err"
grep -q 'src/cli/commands_x.cc:2: the CLI includes core/c.h' "$tmp/err"
if grep -q 'commands_x.cc:1' "$tmp/err"; then echo "FAIL: the public API was refused to the CLI"; exit 1; fi
grep -q 'exception src/verify/judge/records_test.cc -> verify/sandboxed/driver/rg_driver.h matches no include' "$tmp/err"
if grep -q 'v.cc:1' "$tmp/err"; then echo "FAIL: an allowed include was refused"; exit 1; fi
echo "layering_test: ok"
