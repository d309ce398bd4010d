// NewLlamaBackend for builds without llama.cpp (REGRAPHT_WITH_LLAMA=OFF or
// llama.cpp not found at configure time).
#include "llm/llama_backend.h"

namespace regrapht {
namespace llm {

int64_t LlamaDecodeCalls(const LlmBackend&) { return -1; }

Status RequantizeGguf(const fs::path&, const fs::path&, const std::string&, int) {
  return Status::FailedPrecondition(
      "requantizing needs llama.cpp; run scripts/setup-llama.sh, then reconfigure (cmake -S . -B build)");
}

}  // namespace llm

bool LlamaAvailable() { return false; }

std::optional<LlamaInfo> GetLlamaInfo(const LlmBackend&) { return std::nullopt; }

Result<int> CountTokens(LlmBackend& backend, const std::string&) {
  return Status::InvalidArgument(backend.Name() + " cannot count tokens");
}

Result<std::unique_ptr<LlmBackend>> NewLlamaBackend(const LlamaOptions&) {
  return Status::FailedPrecondition(
      "built without llama.cpp; run scripts/setup-llama.sh, then reconfigure (cmake -S . -B build)");
}

}  // namespace regrapht
