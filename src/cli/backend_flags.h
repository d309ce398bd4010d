// Flags that choose the language model: an embedded GGUF file or an
// OpenAI-compatible server. Shared by chat, bench-llm, optimize and bench.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/number_flags.h"
#include "core/fs.h"
#include "llm/models.h"
#include "regrapht/llm.h"

namespace regrapht::cli {

struct BackendFlags {
  std::string model;        // a GGUF file
  // OpenAI-compatible base URLs; several: replicas of one model, used
  // round-robin with health tracking (NewReplicaBackend).
  std::vector<std::string> endpoints;
  std::string model_name;   // for the endpoint
  std::string model_id;     // for the endpoint: its name in results and caches (default NAME@URL)
  std::string api_key;
  int threads = 0;
  int ctx_size = 8192;
  int gpu_layers = 0;
  std::string chat_template;
  int max_in_flight = 4;     // requests outstanding to the endpoints (not a flag here: SearchFlags sets it)
  double request_timeout_s = 900;  // the whole of one request to an endpoint, retries included
  int max_retries = -1;            // -1: 4 for one endpoint, 1 per replica
  int max_sequences = 8;        // embedded: samples of one prompt decoded together
  std::string guided = "none";  // none | llama-server | vllm: how a grammar reaches the endpoint

  void Add(CLI::App* sub) {
    sub->add_option("--model", model, "A GGUF model file (default: the registry's default model)");
    sub->add_option("--endpoint", endpoints,
                    "Base URL of an OpenAI-compatible server, e.g. http://localhost:8000/v1 "
                    "(default: $OPENAI_BASE_URL when --model-name is given); repeat it, or separate URLs "
                    "with commas, for replicas of one model (used round-robin; a failing one is retried later)")
        ->delimiter(',')
        ->allow_extra_args(false);
    sub->add_option("--model-name", model_name, "Model name to request from the endpoint");
    sub->add_option("--model-id", model_id,
                    "With --endpoint: the model's name in results and caches (default NAME@URL, or NAME@URL1,URL2 "
                    "for replicas); give every shard the same one when they reach the model at different URLs");
    sub->add_option("--api-key", api_key, "API key (default: $OPENAI_API_KEY)");
    AddNumber(sub, "--request-timeout", &request_timeout_s, {0.0, 1e7},
              "With --endpoint: seconds one model request may take in all, retries and their waits "
              "included, however steadily bytes arrive (0: no limit; a silent server still trips the "
              "600 s read timeout)");
    AddNumber(sub, "--max-retries", &max_retries, {0, 100},
              "With --endpoint: retries of a request after a connection error, 429 or 5xx (default 4; 1 "
              "per replica)")
        ->default_str("");
    AddNumber(sub, "--threads", &threads, {0, 4096}, "CPU threads for the embedded model (0: physical cores)");
    AddNumber(sub, "--ctx-size", &ctx_size, {16, 16777216}, "Context size in tokens for the embedded model");
    AddNumber(sub, "--gpu-layers", &gpu_layers, {0, 100000}, "Layers to offload (CUDA builds of llama.cpp)");
    sub->add_option("--chat-template", chat_template,
                    "Override the model's chat template (a llama.cpp name such as chatml)");
    AddNumber(sub, "--max-sequences", &max_sequences, {1, 64},
              "Embedded model: samples of one prompt (n > 1, best-of-n) decoded together as one batch "
              "(1: one after another)");
    sub->add_option("--guided-decoding", guided,
                    "With --endpoint: how an output grammar reaches the server: none (plain prompting), "
                    "llama-server (its \"grammar\" field) or vllm (\"guided_grammar\")")
        ->capture_default_str()
        ->check(CLI::IsMember({"none", "llama-server", "vllm"}));
  }

  bool UseHttp() const {
    const char* env = std::getenv("OPENAI_BASE_URL");
    return !endpoints.empty() || (!model_name.empty() && env != nullptr && *env != '\0');
  }

  Result<fs::path> ModelPath() const {
    if (!model.empty()) return ExpandUser(model);
    RG_ASSIGN_OR_RETURN(fs::path path, llm::DefaultModelPath());
    if (!fs::exists(path)) {
      return Status::NotFound("no --model given and the default model is not at " +
                              path.string() +
                              ": fetch it with `regrapht model pull smollm2-135m` (or "
                              "scripts/fetch-default-model.sh), or pass --model FILE.gguf or "
                              "--endpoint URL --model-name NAME");
    }
    return path;
  }

  Result<std::unique_ptr<LlmBackend>> Make(bool reuse_prefix = true) const {
    if (UseHttp()) return MakeHttp();
    LlamaOptions o;
    RG_ASSIGN_OR_RETURN(o.model_path, ModelPath());
    o.threads = threads;
    o.context_size = ctx_size;
    o.gpu_layers = gpu_layers;
    o.chat_template = chat_template;
    o.reuse_prefix = reuse_prefix;
    o.max_sequences = max_sequences;
    return NewLlamaBackend(o);
  }

 private:
  Result<std::unique_ptr<LlmBackend>> MakeHttp() const {
    OpenAiOptions o;
    o.model = model_name;
    o.model_id = model_id;
    o.api_key = api_key;
    o.max_in_flight = std::max(1, max_in_flight);
    o.request_timeout_s = request_timeout_s;
    if (max_retries >= 0) o.max_retries = max_retries;
    o.guided = guided;
    if (endpoints.size() <= 1) {
      o.base_url = endpoints.empty() ? "" : endpoints.front();
      return NewOpenAiBackend(o);
    }
    // Replicas: each one gives up quickly, so that a dead one costs a
    // request about a second before the next replica takes it.
    if (max_retries < 0) o.max_retries = 1;
    o.backoff_initial_s = 0.5;
    std::vector<std::unique_ptr<LlmBackend>> replicas;
    for (const auto& url : endpoints) {
      o.base_url = url;
      RG_ASSIGN_OR_RETURN(auto one, NewOpenAiBackend(o));
      replicas.push_back(std::move(one));
    }
    return NewReplicaBackend(std::move(replicas));
  }
};

}  // namespace regrapht::cli
