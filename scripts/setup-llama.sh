#!/usr/bin/env bash
# Builds llama.cpp (ggml + llama, static, library only) and installs it to a
# prefix in regrapht's cache, outside the repository:
#
#   ${REGRAPHT_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/regrapht}/llama-0.3.36-<variant>
#
# where <variant> is "cpu", or "cuda" with REGRAPHT_LLAMA_CUDA=1.
#
# Source, in order of preference:
#   1. $REGRAPHT_LLAMA_SOURCE: a llama.cpp source tree you provide. It is
#      installed to llama-local-<hash of its path>-<variant> instead, and the
#      script prints the -DREGRAPHT_LLAMA_PREFIX=... to configure regrapht with.
#   2. the PyPI sdist of llama-cpp-python 0.3.36 (downloaded once to
#      <cache>/downloads and checked against its sha256), which vendors
#      llama.cpp b11312 (ggml-org/llama.cpp@0c1e57098) under vendor/llama.cpp (MIT).
#
# Idempotent: when the prefix already holds a complete build (its stamp file
# names the same source and flags), nothing is done. --force rebuilds.
# The vocab-only GGUFs the unit tests need are installed to
# <prefix>/share/regrapht/vocab/.
#
# Environment: REGRAPHT_CACHE_DIR, REGRAPHT_LLAMA_SOURCE, REGRAPHT_LLAMA_CUDA=1,
# REGRAPHT_LLAMA_PREFIX (install here instead), REGRAPHT_JOBS (default: nproc),
# REGRAPHT_LLAMA_CMAKE_ARGS (extra CMake flags, e.g. -DCMAKE_CUDA_ARCHITECTURES=90).
# Usage: scripts/setup-llama.sh [--force] [--print-prefix]
set -euo pipefail

PINNED_VERSION=0.3.36                 # llama-cpp-python sdist on PyPI
LLAMA_CPP_COMMIT=0c1e57098bba43ac29e6e3b677cdceebdd22334f  # what that sdist vendors (its CHANGELOG: @0c1e57098)
LLAMA_CPP_TAG=b11312                  # the upstream release tag of that commit
SDIST_NAME="llama_cpp_python-${PINNED_VERSION}.tar.gz"
SDIST_URL="https://files.pythonhosted.org/packages/ec/e9/e7de2b0463ea3ffbf0ede6cb21b58c1258a8f6521aae45ca773a59fe7cf3/${SDIST_NAME}"
SDIST_SHA256=832db0699007f1be95a7e41ef12e88926b02ba836461e36a36372db2760c1a2e
VOCABS=(ggml-vocab-llama-spm.gguf ggml-vocab-llama-bpe.gguf)

force=0
print_prefix=0
for arg in "$@"; do
  case "$arg" in
    --force) force=1 ;;
    --print-prefix) print_prefix=1 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "setup-llama.sh: unknown argument: $arg" >&2; exit 2 ;;
  esac
done

log() { echo "setup-llama: $*" >&2; }

cache="${REGRAPHT_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/regrapht}"
variant=cpu
if [[ "${REGRAPHT_LLAMA_CUDA:-0}" == 1 ]]; then variant=cuda; fi

if [[ -n "${REGRAPHT_LLAMA_SOURCE:-}" ]]; then
  src_dir="$(cd "$REGRAPHT_LLAMA_SOURCE" && pwd)"
  [[ -f "$src_dir/include/llama.h" ]] || { log "$src_dir is not a llama.cpp tree (no include/llama.h)"; exit 1; }
  src_id="local:$src_dir"
  tag="local-$(printf '%s' "$src_dir" | sha256sum | cut -c1-8)"
else
  src_dir=""
  src_id="llama-cpp-python-${PINNED_VERSION} (llama.cpp ${LLAMA_CPP_TAG} ${LLAMA_CPP_COMMIT:0:9})"
  tag="$PINNED_VERSION"
fi
prefix="${REGRAPHT_LLAMA_PREFIX:-$cache/llama-$tag-$variant}"
if [[ $print_prefix == 1 ]]; then echo "$prefix"; exit 0; fi

cmake_flags=(
  -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF -DGGML_NATIVE=OFF
  -DLLAMA_BUILD_COMMON=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF
  -DLLAMA_BUILD_TOOLS=OFF -DLLAMA_BUILD_SERVER=OFF -DLLAMA_BUILD_APP=OFF -DLLAMA_CURL=OFF
  -DCMAKE_POSITION_INDEPENDENT_CODE=ON
)
if [[ $variant == cuda ]]; then cmake_flags+=(-DGGML_CUDA=ON); fi
# Extra flags, e.g. REGRAPHT_LLAMA_CMAKE_ARGS="-DCMAKE_CUDA_ARCHITECTURES=90" (recorded in the stamp).
if [[ -n "${REGRAPHT_LLAMA_CMAKE_ARGS:-}" ]]; then
  read -r -a extra_flags <<< "$REGRAPHT_LLAMA_CMAKE_ARGS"
  cmake_flags+=("${extra_flags[@]}")
fi

stamp="$prefix/regrapht-llama.stamp"
want_stamp="source=$src_id
variant=$variant
flags=${cmake_flags[*]}"

complete() {
  [[ -f "$stamp" && -f "$prefix/include/llama.h" && -f "$prefix/lib/libllama.a" ]] || return 1
  # The first three lines of the stamp say what was built; later lines are notes.
  [[ "$(head -n 3 "$stamp")" == "$want_stamp" ]]
}

if [[ $force == 0 ]] && complete; then
  log "llama.cpp already installed at $prefix (delete it or pass --force to rebuild)"
  echo "$prefix"
  exit 0
fi

for tool in cmake c++ tar sha256sum; do
  command -v "$tool" >/dev/null || { log "needs $tool on PATH"; exit 1; }
done

work="$cache/build/llama-$tag-$variant"
if [[ -z "$src_dir" ]]; then
  downloads="$cache/downloads"
  mkdir -p "$downloads"
  sdist="$downloads/$SDIST_NAME"
  if [[ ! -f "$sdist" ]] || ! echo "$SDIST_SHA256  $sdist" | sha256sum -c --status; then
    rm -f "$sdist" "$sdist.part"
    log "downloading $SDIST_NAME from PyPI"
    if command -v curl >/dev/null && curl -fL --retry 3 -o "$sdist.part" "$SDIST_URL"; then
      mv "$sdist.part" "$sdist"
    else
      log "direct download failed; trying pip download"
      python3 -m pip download --no-deps --no-binary :all: "llama-cpp-python==$PINNED_VERSION" -d "$downloads"
    fi
    echo "$SDIST_SHA256  $sdist" | sha256sum -c --status || { log "sha256 mismatch for $sdist"; exit 1; }
  fi
  unpack="$work/src"
  if [[ ! -f "$unpack/llama_cpp_python-$PINNED_VERSION/vendor/llama.cpp/include/llama.h" ]]; then
    rm -rf "$unpack"
    mkdir -p "$unpack"
    log "unpacking the sdist"
    tar -xzf "$sdist" -C "$unpack"
  fi
  src_dir="$unpack/llama_cpp_python-$PINNED_VERSION/vendor/llama.cpp"
fi

jobs="${REGRAPHT_JOBS:-$(nproc 2>/dev/null || echo 2)}"
generator=()
if command -v ninja >/dev/null; then generator=(-G Ninja); fi
build="$work/build"
staging="$prefix.partial"
# The build folder is kept between runs: a rebuild after a failure is incremental.
rm -rf "$staging"
log "configuring $src_dir ($variant)"
cmake -S "$src_dir" -B "$build" "${generator[@]}" "${cmake_flags[@]}" \
  -DCMAKE_INSTALL_PREFIX="$staging" -DLLAMA_BUILD_COMMIT="${LLAMA_CPP_COMMIT:0:9}" -DLLAMA_BUILD_NUMBER="${LLAMA_CPP_TAG#b}" >&2
log "building with $jobs jobs (a few minutes on 2 cores)"
cmake --build "$build" -j "$jobs" >&2
cmake --install "$build" >&2

mkdir -p "$staging/share/regrapht/vocab"
for v in "${VOCABS[@]}"; do
  if [[ -f "$src_dir/models/$v" ]]; then cp "$src_dir/models/$v" "$staging/share/regrapht/vocab/"; fi
done
cp "$src_dir/LICENSE" "$staging/share/regrapht/LICENSE.llama.cpp" 2>/dev/null || true

{
  echo "$want_stamp"
  echo "llama_cpp_commit=$LLAMA_CPP_COMMIT"
  echo "llama_cpp_tag=$LLAMA_CPP_TAG"
  echo "source_dir=$src_dir"
  echo "built=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
} > "$staging/regrapht-llama.stamp"

# Swap in the finished prefix only now, so a half-built one is never "complete".
rm -rf "$prefix"
mv "$staging" "$prefix"
# CMake's installed config files hold absolute paths of the staging folder.
grep -rl --null "$staging" "$prefix/lib" 2>/dev/null | xargs -0 -r sed -i "s#$staging#$prefix#g"
log "installed to $prefix"
if [[ -n "${REGRAPHT_LLAMA_SOURCE:-}" ]]; then
  log "configure regrapht with -DREGRAPHT_LLAMA_PREFIX=$prefix"
fi
echo "$prefix"
