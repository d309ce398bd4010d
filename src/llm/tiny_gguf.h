// Test helper: writes a tiny random-weight llama-architecture GGUF (about
// 8 MB) with a real tokenizer copied from one of llama.cpp's vocab-only GGUFs
// (installed by scripts/setup-llama.sh to <prefix>/share/regrapht/vocab).
// Its text is meaningless, but loading, templates, tokenization, sampling and
// the KV cache run for real, in milliseconds.
#pragma once

#include <string>

#include "core/fs.h"
#include "regrapht/status.h"

namespace regrapht::llm {

struct TinyGgufOptions {
  fs::path vocab_gguf;       // e.g. <vocab dir>/ggml-vocab-llama-spm.gguf
  int n_embd = 32;
  int n_layer = 2;
  int n_head = 4;
  int n_head_kv = 2;
  int n_ff = 128;
  int context_length = 4096;
  uint64_t seed = 1;
  bool chat_template = true;  // store a ChatML template in the metadata
};

Status WriteTinyGguf(const fs::path& out, const TinyGgufOptions& options);

}  // namespace regrapht::llm
