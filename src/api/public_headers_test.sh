#!/bin/sh
# The public API is usable alone: every header under include/regrapht/
# compiles in a translation unit of its own with ONLY include/ on the include
# path (no src/; and they include only standard headers and each other), and
# so does examples/optimize_one.cc;
# and every class a public header only forward-declares is defined under
# include/ too, unless it is one of the opaque types below, each of which has
# a public way to get one.
# Usage: public_headers_test.sh CXX SOURCE_DIR
set -u
cxx=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
compile() {  # compile NAME FILE
  if ! "$cxx" -std=c++20 -fsyntax-only -Wall -Wextra -Werror -I "$src/include" -x c++ "$2" >"$tmp/err.txt" 2>&1; then
    echo "FAIL: $1 does not compile with only include/ on the include path:" >&2
    head -20 "$tmp/err.txt" >&2
    failed=1
  fi
}
# Third-party headers are in system folders, so the compile alone would not
# catch them: public headers include only the standard library and each other.
if grep -nE '^#include' "$src"/include/regrapht/*.h | grep -vE '#include (<[a-z_]+>|"regrapht/[a-z_]+\.h")$' >"$tmp/inc.txt"; then
  echo "FAIL: public headers include more than the standard library and regrapht/:" >&2
  cat "$tmp/inc.txt" >&2
  failed=1
fi
n=0
for h in "$src"/include/regrapht/*.h; do
  name=regrapht/$(basename "$h")
  printf '#include "%s"\n#include "%s"\n' "$name" "$name" >"$tmp/one.cc"  # twice: include guard
  compile "$name" "$tmp/one.cc"
  n=$((n + 1))
done
[ $n -ge 8 ] || { echo "FAIL: only $n public headers found under $src/include/regrapht" >&2; failed=1; }
compile examples/optimize_one.cc "$src/examples/optimize_one.cc"

# Opaque types: name, and how a caller gets one.
opaque="ExampleIndex CommandRunner"
#   ExampleIndex: NewExampleIndex (search.h)
#   CommandRunner: none needed; Verifier(VerifyOptions) runs its own (verify.h)
for cls in $(sed -n 's/^class \([A-Za-z_][A-Za-z0-9_]*\);.*/\1/p' "$src"/include/regrapht/*.h | sort -u); do
  case " $opaque " in *" $cls "*) continue ;; esac
  if ! grep -Eq "^(class|struct) ($cls( final)?( :.*)? \{|\[\[nodiscard\]\] $cls)" "$src"/include/regrapht/*.h; then
    echo "FAIL: class $cls is forward-declared in a public header but defined outside include/" >&2
    grep -n "^class $cls;" "$src"/include/regrapht/*.h >&2
    failed=1
  fi
done
for cls in $opaque; do
  grep -q "^class $cls;" "$src"/include/regrapht/*.h ||
    { echo "FAIL: $cls is listed as opaque but no public header declares it" >&2; failed=1; }
done
[ $failed -eq 0 ] && echo "ok: $n public headers and the example compile from include/ alone"
exit $failed
