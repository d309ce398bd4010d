#!/usr/bin/env bash
# One-stop set-up on a fresh Debian 12 machine: system packages, llama.cpp
# (built once, cached outside the repo), the default model, and regrapht.
# Ends with a table of the seconds each stage took (docs/performance.md,
# "Set-up and tests").
set -euo pipefail
cd "$(dirname "$0")/.."
rows=()
stage() {  # stage NAME COMMAND...: runs it, keeps its wall time for the table
  local name=$1 start=$SECONDS
  shift
  "$@"
  rows+=("$name $((SECONDS - start))")
}
stage packages scripts/install-deps.sh
if [ -x scripts/setup-llama.sh ]; then stage llama.cpp scripts/setup-llama.sh; fi
if [ -x scripts/fetch-default-model.sh ]; then stage model scripts/fetch-default-model.sh; fi
stage regrapht scripts/build.sh
echo "setup.sh: seconds per stage"
for row in "${rows[@]}"; do printf '  %-10s %5s\n' $row; done
printf '  %-10s %5s\n' total "$SECONDS"
