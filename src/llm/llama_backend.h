// Internals of the embedded llama.cpp backend shared with its tests and the
// bench command. The public entry point is NewLlamaBackend (regrapht/llm.h).
#pragma once

#include <optional>
#include <string>

#include "regrapht/llm.h"

namespace regrapht::llm {

// The number of physical cores (distinct core ids in /sys), or
// hardware_concurrency() where that cannot be read.
int PhysicalCores();

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

// Tokenizes `text` with the backend's model (no special-token handling
// beyond parsing them): the bench command sizes its prompts with this.
// Fails with InvalidArgument for other backends.
Result<int> CountTokens(LlmBackend& backend, const std::string& text);

}  // namespace regrapht::llm
