// Internals of the embedded llama.cpp backend shared with its tests and the
// bench command. The public entry point is NewLlamaBackend (regrapht/llm.h).
#pragma once

#include <optional>
#include <string>

#include "core/fs.h"
#include "regrapht/llm.h"

namespace regrapht::llm {

// LlamaInfo, GetLlamaInfo and CountTokens are public (regrapht/llm.h).
using regrapht::CountTokens;
using regrapht::GetLlamaInfo;
using regrapht::LlamaInfo;

// llama_decode calls the backend has made (prompt chunks and generation
// steps; a batched step counts once), or -1 for other backends: tests and
// bench-llm see from it how many sequences went together.
int64_t LlamaDecodeCalls(const LlmBackend& backend);

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
