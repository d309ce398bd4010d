# llama.cpp for the embedded GGUF backend (src/llm/llama_backend.cc).
#
# Where llama.cpp comes from, first match wins:
#   1. -DREGRAPHT_LLAMA_SOURCE_DIR=/path/to/llama.cpp: built inside this build
#      (add_subdirectory, EXCLUDE_FROM_ALL; adds minutes to a clean build).
#   2. -DREGRAPHT_LLAMA_FETCH=ON: FetchContent of ggml-org/llama.cpp at the
#      pinned tag (machines with internet access).
#   3. An installed prefix, found with find_package(llama): -DREGRAPHT_LLAMA_PREFIX
#      or CMAKE_PREFIX_PATH, else the prefix scripts/setup-llama.sh installs:
#      ${REGRAPHT_CACHE_DIR:-${XDG_CACHE_HOME:-~/.cache}/regrapht}/llama-0.3.36-<variant>.
#
# Without llama.cpp (or with -DREGRAPHT_WITH_LLAMA=OFF) regrapht still builds;
# NewLlamaBackend then returns FailedPrecondition.
#
# Sets: REGRAPHT_HAVE_LLAMA (ON/OFF), REGRAPHT_LLAMA_TARGET (link this),
#       REGRAPHT_LLAMA_VOCAB_DIR (vocab-only GGUFs for the unit tests),
#       REGRAPHT_LLAMA_DESCRIPTION (for messages and `regrapht version`).

set(REGRAPHT_LLAMA_PINNED_VERSION 0.3.36)  # llama-cpp-python sdist; see scripts/setup-llama.sh
set(REGRAPHT_LLAMA_PINNED_TAG b11312)      # = ggml-org/llama.cpp@0c1e57098bba43ac29e6e3b677cdceebdd22334f

set(REGRAPHT_LLAMA_PREFIX "" CACHE PATH "An installed llama.cpp prefix (scripts/setup-llama.sh prints it)")
set(REGRAPHT_LLAMA_SOURCE_DIR "" CACHE PATH "A llama.cpp source tree to build in-tree")
option(REGRAPHT_LLAMA_FETCH "FetchContent llama.cpp ${REGRAPHT_LLAMA_PINNED_TAG} from GitHub" OFF)
if(DEFINED ENV{REGRAPHT_LLAMA_CUDA} AND "$ENV{REGRAPHT_LLAMA_CUDA}" STREQUAL "1")
  set(_rg_variant_default cuda)
else()
  set(_rg_variant_default cpu)
endif()
set(REGRAPHT_LLAMA_VARIANT ${_rg_variant_default} CACHE STRING "cpu or cuda: which setup-llama.sh prefix to look for")

set(REGRAPHT_HAVE_LLAMA OFF)
set(REGRAPHT_LLAMA_TARGET "")
set(REGRAPHT_LLAMA_VOCAB_DIR "")
set(REGRAPHT_LLAMA_DESCRIPTION "none")

function(_regrapht_llama_in_tree src)
  set(BUILD_SHARED_LIBS OFF)
  set(GGML_NATIVE OFF CACHE BOOL "" FORCE)
  foreach(opt LLAMA_BUILD_COMMON LLAMA_BUILD_TESTS LLAMA_BUILD_EXAMPLES LLAMA_BUILD_TOOLS
              LLAMA_BUILD_SERVER LLAMA_BUILD_APP LLAMA_CURL)
    set(${opt} OFF CACHE BOOL "" FORCE)
  endforeach()
  # llama.cpp's own warning flags are not ours to police.
  add_subdirectory(${src} ${CMAKE_BINARY_DIR}/_deps/llama-build EXCLUDE_FROM_ALL SYSTEM)
endfunction()

if(REGRAPHT_WITH_LLAMA)
  if(REGRAPHT_LLAMA_SOURCE_DIR)
    if(NOT EXISTS ${REGRAPHT_LLAMA_SOURCE_DIR}/include/llama.h)
      message(FATAL_ERROR "REGRAPHT_LLAMA_SOURCE_DIR=${REGRAPHT_LLAMA_SOURCE_DIR} holds no include/llama.h")
    endif()
    _regrapht_llama_in_tree(${REGRAPHT_LLAMA_SOURCE_DIR})
    set(REGRAPHT_HAVE_LLAMA ON)
    set(REGRAPHT_LLAMA_TARGET llama)
    set(REGRAPHT_LLAMA_VOCAB_DIR ${REGRAPHT_LLAMA_SOURCE_DIR}/models)
    set(REGRAPHT_LLAMA_DESCRIPTION "source ${REGRAPHT_LLAMA_SOURCE_DIR}")
  elseif(REGRAPHT_LLAMA_FETCH)
    include(FetchContent)
    FetchContent_Declare(llama_cpp
      GIT_REPOSITORY https://github.com/ggml-org/llama.cpp.git
      GIT_TAG ${REGRAPHT_LLAMA_PINNED_TAG}
      GIT_SHALLOW ON)
    FetchContent_GetProperties(llama_cpp)
    if(NOT llama_cpp_POPULATED)
      FetchContent_Populate(llama_cpp)
    endif()
    _regrapht_llama_in_tree(${llama_cpp_SOURCE_DIR})
    set(REGRAPHT_HAVE_LLAMA ON)
    set(REGRAPHT_LLAMA_TARGET llama)
    set(REGRAPHT_LLAMA_VOCAB_DIR ${llama_cpp_SOURCE_DIR}/models)
    set(REGRAPHT_LLAMA_DESCRIPTION "fetched ${REGRAPHT_LLAMA_PINNED_TAG}")
  else()
    if(DEFINED ENV{REGRAPHT_CACHE_DIR} AND NOT "$ENV{REGRAPHT_CACHE_DIR}" STREQUAL "")
      set(_rg_cache $ENV{REGRAPHT_CACHE_DIR})
    elseif(DEFINED ENV{XDG_CACHE_HOME} AND NOT "$ENV{XDG_CACHE_HOME}" STREQUAL "")
      set(_rg_cache $ENV{XDG_CACHE_HOME}/regrapht)
    else()
      set(_rg_cache $ENV{HOME}/.cache/regrapht)
    endif()
    set(_rg_default_prefix ${_rg_cache}/llama-${REGRAPHT_LLAMA_PINNED_VERSION}-${REGRAPHT_LLAMA_VARIANT})
    set(_rg_hints)
    if(REGRAPHT_LLAMA_PREFIX)
      list(APPEND _rg_hints ${REGRAPHT_LLAMA_PREFIX})
    endif()
    list(APPEND _rg_hints ${_rg_default_prefix})
    find_package(llama CONFIG QUIET HINTS ${_rg_hints})
    if(llama_FOUND AND TARGET llama)
      get_filename_component(_rg_prefix "${llama_DIR}/../../.." ABSOLUTE)
      set(REGRAPHT_HAVE_LLAMA ON)
      set(REGRAPHT_LLAMA_TARGET llama)
      set(REGRAPHT_LLAMA_VOCAB_DIR ${_rg_prefix}/share/regrapht/vocab)
      set(REGRAPHT_LLAMA_DESCRIPTION "${_rg_prefix} (llama.cpp ${LLAMA_BUILD_COMMIT}, build ${LLAMA_BUILD_NUMBER})")
    else()
      message(STATUS "regrapht: llama.cpp not found (looked in ${_rg_hints} and CMAKE_PREFIX_PATH).")
      message(STATUS "regrapht: building WITHOUT the embedded llama.cpp backend. To add it, run "
                     "scripts/setup-llama.sh (about 6 minutes on 2 cores, cached afterwards) and "
                     "configure again, or pass -DREGRAPHT_LLAMA_PREFIX=..., "
                     "-DREGRAPHT_LLAMA_SOURCE_DIR=... or -DREGRAPHT_LLAMA_FETCH=ON.")
    endif()
  endif()
  if(REGRAPHT_HAVE_LLAMA)
    message(STATUS "regrapht: embedded llama.cpp backend ON: ${REGRAPHT_LLAMA_DESCRIPTION}")
  endif()
else()
  message(STATUS "regrapht: REGRAPHT_WITH_LLAMA=OFF: building without the embedded backend")
endif()
