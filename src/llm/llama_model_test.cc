// Label `model`: the real default model (SmolLM2-135M-Instruct) answers a
// chat request. Exits 77 (CTest: Skipped) when the model file is missing;
// get it with `regrapht model pull smollm2-135m` or
// scripts/fetch-default-model.sh. $REGRAPHT_TEST_MODEL overrides the file.
#include <cstdio>
#include <cstdlib>

#include "llm/llama_backend.h"
#include "llm/models.h"
#include "regrapht/llm.h"

int main() {
  using namespace regrapht;
  fs::path model;
  if (const char* env = std::getenv("REGRAPHT_TEST_MODEL"); env && *env) {
    model = env;
  } else {
    auto path = llm::DefaultModelPath();
    if (!path.ok()) {
      std::fprintf(stderr, "FAIL: %s\n", path.status().ToString().c_str());
      return 1;
    }
    model = *path;
  }
  if (!fs::exists(model)) {
    std::printf("SKIP: %s not found (regrapht model pull smollm2-135m)\n", model.c_str());
    return 77;
  }
  LlamaOptions options;
  options.model_path = model;
  options.context_size = 2048;
  auto backend = NewLlamaBackend(options);
  if (!backend.ok()) {
    std::fprintf(stderr, "FAIL: %s\n", backend.status().ToString().c_str());
    return 1;
  }
  ChatRequest request;
  request.messages = {{Role::kSystem, "You are a helpful assistant."},
                      {Role::kUser, "What is the capital of France? Answer in one word."}};
  request.sampling.temperature = 0;
  request.sampling.max_tokens = 24;
  auto response = (*backend)->Chat(request);
  if (!response.ok()) {
    std::fprintf(stderr, "FAIL: %s\n", response.status().ToString().c_str());
    return 1;
  }
  const Completion& c = response->choices.at(0);
  std::printf("reply: %s\n(prompt %d tokens in %.1f ms, %d generated in %.1f ms, %s)\n",
              c.text.c_str(), response->tokens_prompt, response->time_prompt_ms,
              c.tokens_generated, c.time_generation_ms,
              std::string(FinishReasonName(c.finish_reason)).c_str());
  if (c.text.find_first_not_of(" \n\t") == std::string::npos || c.tokens_generated == 0) {
    std::fprintf(stderr, "FAIL: empty reply\n");
    return 1;
  }
  auto info = llm::GetLlamaInfo(**backend);
  if (!info || info->chat_template != "model") {
    std::fprintf(stderr, "FAIL: expected the model's own chat template\n");
    return 1;
  }
  std::printf("PASS\n");
  return 0;
}
