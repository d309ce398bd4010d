#!/usr/bin/env bash
# Builds and runs the tests. Tests that need a GPU (label gpu) or a real
# model (label model) report "Skipped" when those are missing; nothing is
# silently dropped. Exits non-zero if any test fails.
#
#   scripts/test.sh                  every test but the exhaustive content gates
#                                    (label content-full), which it names at the end
#   scripts/test.sh --full           every test
#   scripts/test.sh --content-full   only the exhaustive content gates (CI runs
#                                    them after the first form: .ci/run)
# Other arguments go to ctest (-R NAME, -L LABEL, ...).
set -euo pipefail
cd "$(dirname "$0")/.."
tier=quick
case "${1:-}" in
  --full) tier=full; shift ;;
  --content-full) tier=content-full; shift ;;
esac
BUILD_DIR=${REGRAPHT_BUILD_DIR:-build}
scripts/build.sh
cd "$BUILD_DIR"
labels=()
case "$tier" in
  quick) labels=(-LE content-full) ;;
  content-full) labels=(-L content-full) ;;
esac
# One job more than there are cores: the tests that mostly wait (fake servers,
# daemons) overlap with the CPU-bound gates instead of holding a core's slot
# (their COST starts them early; tests/CMakeLists.txt).
status=0
ctest --output-on-failure -j "${REGRAPHT_TEST_JOBS:-$(( $(nproc) + 1 ))}" ${labels[@]+"${labels[@]}"} "$@" ||
  status=$?
if [ "$tier" = quick ]; then
  left=$(ctest -N -L content-full | sed -n 's/^ *Test *#[0-9]*: //p' | tr '\n' ' ')
  echo "test.sh: not run here (label content-full, about 9 minutes on two cores from an empty" \
    "build cache; CI runs them): ${left}- scripts/test.sh --full runs every test"
fi
exit "$status"
