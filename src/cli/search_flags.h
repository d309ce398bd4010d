// Flags of the commands that run a search method (optimize, bench): the
// method, its budget and knobs, the reasoning graph and the prompt templates.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "cli/backend_flags.h"
#include "cli/command.h"
#include "graph/retrieval.h"
#include "regrapht/bench.h"
#include "regrapht/graph.h"
#include "regrapht/search.h"
#include "search/prompts.h"

namespace regrapht::cli {

struct SearchFlags {
  std::string method = "regrapht-mcgs";
  int budget = 200;
  int max_verifications = 0;
  double max_seconds = 0;
  int iterations = 0;
  int max_depth = 6;
  int step_retries = 2;
  bool close_failed_edges = true;  // false: a failed edge is never closed (the paper)
  std::string q = "mean";          // mean | max: the Q that MCGS's selection ranks by
  // ours | paper: --protocol paper sets the paper's values of the flags not
  // given explicitly (rollouts 10, --q max, --no-close-failed-edges,
  // --no-heldout, budget 200) and SearchOptions::protocol.
  std::string protocol = "ours";
  std::string retrieval = "bm25";  // bm25 | embeddings (the backend's Embed, or --embed-model's)
  std::string embed_model;         // a GGUF file for embeddings (default: the search's own model)
  double c = 1.41421356237;
  double epsilon = 0.1;
  double lambda = 0.5;
  int rollouts = 1;
  int examples = 1;
  uint64_t seed = 1;
  // The rules' first step (`--first-step rules`, the default; `--first-step none`): a
  // parallel version written without a model, MCGS's first child
  // (docs/search.md). --protocol paper sets it to "none" unless given.
  std::string seed_step = "rules";
  float temperature = 0.7f;
  float top_p = 0.9f;
  int max_tokens = 2048;
  std::string graph;      // default: <data>/graph/regrapht.json
  std::string prompts;    // folder of template overrides
  bool no_cache = false;
  // Re-verify and re-time the method's answer on held-out inputs (docs/bench.md).
  bool heldout = true;
  int max_in_flight = 1;  // model requests outstanding at once (does not change results)
  std::string pipeline = "auto";  // candidates in flight (auto: 2 for an endpoint, 1 embedded); results unchanged
  int max_endpoint_failures = 5;  // failed model requests in a row before the search stops
  // Output shaping (docs/llm.md): "auto" picks the backend's default.
  std::string prefill = "auto";        // auto | on | off
  std::string grammar = "auto";        // auto | on | off
  std::string stop_at_fence = "on";    // on | off
  std::string wrap_up = "on";          // on | off
  // Repetition control (docs/llm.md "Repetition"): "auto" or a number.
  std::string repeat_penalty = "auto";  // auto: 1.1 for the embedded model, off (1) for an endpoint
  std::string dry_multiplier = "auto";  // auto: off (0)
  BackendFlags backend;
  // optimize: --budget and --max-tokens default to "auto", sized to the
  // backend once the command line is parsed: the embedded model on a CPU
  // gets kCpuBudget generations of up to kCpuMaxTokens tokens (minutes), an
  // endpoint or a GPU (--gpu-layers) the paper's 200 of 2048. *_auto says
  // which were chosen so.
  bool auto_sized = false;
  std::string budget_arg = "auto", max_tokens_arg = "auto";
  bool budget_auto = false, max_tokens_auto = false;

  // --protocol paper: the paper's values of the flags `sub` was not given.
  void ApplyPaperProtocolFlags(const CLI::App* sub);
  static constexpr int kCpuBudget = 8;
  static constexpr int kCpuMaxTokens = 512;
  static constexpr int kPaperBudget = 200;
  static constexpr int kPaperMaxTokens = 2048;

  // Adds the flags; `auto_sized`: see above.
  void Add(CLI::App* sub, bool with_method = true, bool auto_sized = false);
  // Add's groups of flags, in the order --help lists them: method and
  // budget; the search's knobs; the model's reply, examples and requests;
  // output shaping and repetition control.
  void AddBudgetFlags(CLI::App* sub, bool with_method);
  void AddSearchFlags(CLI::App* sub);
  void AddModelFlags(CLI::App* sub);
  void AddShapingFlags(CLI::App* sub);
  // The embedded model on the CPU (no endpoint, no --gpu-layers).
  bool EmbeddedOnCpu() const { return !backend.UseHttp() && backend.gpu_layers == 0; }
  SearchOptions ToOptions() const;
  // The shaping the flags and the backend give: embedded, prefill and grammar
  // on; an endpoint, no prefill and the grammar only with --guided-decoding.
  ShapeOptions Shape() const;
  // Writes the repetition settings into `s`: the backend's default for
  // "auto", else the number given (checked by the flag's validator).
  void ApplyRepetition(SamplingParams& s) const;
  // Why the repetition flags cannot reach the endpoint; empty when they can
  // (or there is no endpoint).
  std::string CheckRepetitionForEndpoint() const;
  // The settings that change results (regrapht/bench.h's experiment key).
  ExperimentSettings Experiment(const std::string& model_id) const;
  // Experiment(model_id) as JSON (ExperimentKeyJson: bench's config hash).
  std::string ConfigJson(const std::string& model_id) const;
};

// What a search needs besides the problem: graph, example index, model,
// prompts. Built once per command.
struct SearchEnv {
  std::unique_ptr<Graph> graph;
  std::unique_ptr<ExampleIndex> index;
  std::unique_ptr<LlmBackend> llm;
  std::unique_ptr<LlmBackend> embedder;  // --embed-model; null: llm embeds
  LlmBackend* model = nullptr;  // llm without the response cache (owned by llm): for measuring speed
  PromptLibrary prompts;
  std::string graph_path;
};

// Loads the graph (when the method needs it), the model and the prompts.
Result<std::unique_ptr<SearchEnv>> MakeSearchEnv(const SearchFlags& flags);

}  // namespace regrapht::cli
