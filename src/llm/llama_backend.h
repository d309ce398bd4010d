// Internals of the embedded llama.cpp backend shared with its tests and the
// bench command. The public entry point is NewLlamaBackend (regrapht/llm.h).
#pragma once

#include <optional>
#include <string>

#include "core/fs.h"
#include "regrapht/llm.h"

namespace regrapht::llm {

// Facts about a loaded embedded model, for `chat` and `bench-llm` output.
struct LlamaInfo {
  std::string description;    // llama_model_desc, e.g. "llama ?B Q4_1"
  std::string chat_template;  // the template used: a built-in name or "model"
  int context_size = 0;
  int threads = 0;
  uint64_t model_bytes = 0;
  uint64_t parameters = 0;
};

// Returns the info of a backend made by NewLlamaBackend, or nullopt for
// other backends.
std::optional<LlamaInfo> GetLlamaInfo(const LlmBackend& backend);

// llama_decode calls the backend has made (prompt chunks and generation
// steps; a batched step counts once), or -1 for other backends: tests and
// bench-llm see from it how many sequences went together.
int64_t LlamaDecodeCalls(const LlmBackend& backend);

// Tokenizes `text` with the backend's model (no special-token handling
// beyond parsing them): the bench command sizes its prompts with this.
// Fails with InvalidArgument for other backends.
Result<int> CountTokens(LlmBackend& backend, const std::string& text);

// Rewrites the GGUF `in` with its weight matrices in `type` ("q8_0" or
// "f16") to `out` (through "<out>.part", renamed when complete), with
// llama.cpp's llama_model_quantize (allow_requantize: quantized weights are
// dequantized first). Q4_1 weights are d*q+m per 32 values; Q8_0 holds them
// to within 1/254 of each block's largest value, F16 to fp16 rounding. Why:
// this llama.cpp has a batched CPU GEMM (llamafile tinyBLAS) for Q8_0 and
// F16 but not for Q4_1 (docs/llm.md "Batched generation"). Errors: in
// missing (NotFound), an unknown type (InvalidArgument), llama.cpp failing
// (Internal; nothing is left at `out`).
Status RequantizeGguf(const fs::path& in, const fs::path& out, const std::string& type,
                      int threads = 0);

}  // namespace regrapht::llm
