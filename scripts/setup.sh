#!/usr/bin/env bash
# One-stop set-up on a fresh Debian 12 machine: system packages, llama.cpp
# (built once, cached outside the repo), the default model, and regrapht.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
if [ -x scripts/setup-llama.sh ]; then scripts/setup-llama.sh; fi
if [ -x scripts/fetch-default-model.sh ]; then scripts/fetch-default-model.sh; fi
scripts/build.sh
