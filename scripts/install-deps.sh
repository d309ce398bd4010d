#!/usr/bin/env bash
# Installs the Debian packages regrapht builds against. Idempotent: installs
# only what is missing. Needs root (or sudo).
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build pkg-config git curl ca-certificates unzip python3
  nlohmann-json3-dev libcli11-dev libfmt-dev libspdlog-dev libsqlite3-dev
  libcurl4-openssl-dev libcpp-httplib-dev libxxhash-dev
  # OpenSSL's libcrypto: SHA-256 of model files and sealed driver records (core/hash.h).
  libssl-dev
  # libclang: the C++ front end of the rules' first step (src/seed; without it
  # the build works and --first-step rules / --method rules say "unavailable").
  libclang-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  bubblewrap graphviz
  # Compiler cache for regrapht's own sources (scripts/build.sh uses it when
  # present; ~/.cache/ccache, outside the repo): a rebuild of an unchanged
  # tree in a fresh clone takes about a minute instead of eight.
  ccache
  # report_browser_test renders the HTML pages in headless chromium (skipped without it).
  chromium fonts-dejavu-core
  # completion_zsh_test loads `regrapht completion zsh` in zsh (skipped without it).
  zsh
  # The Slurm test (scripts/slurm/slurm_cluster_test.sh) starts its own
  # single-node cluster from these; nothing is configured system-wide.
  munge slurmctld slurmd slurm-client
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "install-deps: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"

if ! command -v nvcc >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "install-deps: WARNING: nvcc not found. regrapht needs the CUDA toolkit (12.x or 13.x) to compile"
  echo "             candidates; install it from NVIDIA and put its bin/ on PATH." >&2
fi
