#include "cli/search_flags.h"

#include "cli/number_flags.h"
#include "core/json_util.h"
#include "core/numbers.h"
#include "core/strings.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace regrapht::cli {
namespace {

// The repeat penalty "auto" gives the embedded model (docs/llm.md
// "Repetition control": on SmolLM2-135M it ended every reply of a sample of
// the easy tier inside its token budget; DRY 0.8 ended half).
constexpr float kEmbeddedRepeatPenalty = 1.1f;

// "auto" or a number, through the one parser of numbers (core/numbers.h).
std::string CheckNumberOrAuto(const std::string& v, bool allow_zero) {
  if (v == "auto") return "";
  auto d = ParseRealIn(v, 0, 1e6, /*lo_open=*/!allow_zero);
  return d.ok() ? "" : "auto or " + d.status().message();
}

const CLI::Validator PositiveOrAuto(
    [](std::string& v) { return CheckNumberOrAuto(v, /*allow_zero=*/false); }, "auto|NUMBER>0");
const CLI::Validator NonNegativeOrAuto(
    [](std::string& v) { return CheckNumberOrAuto(v, /*allow_zero=*/true); }, "auto|NUMBER>=0");
const CLI::Validator DepthOrAuto(
    [](std::string& v) -> std::string {
      if (v == "auto") return "";
      auto n = ParseWholeIn(v, 0, 64);
      return n.ok() ? "" : "auto or " + n.status().message();
    },
    "auto|0..64");

// "auto" or a whole number in [1, 1000000].
const CLI::Validator AutoOrCount(
    [](std::string& v) -> std::string {
      if (v == "auto") return "";
      char* end = nullptr;
      errno = 0;
      long n = std::strtol(v.c_str(), &end, 10);
      if (v.empty() || *end != '\0' || errno != 0 || n < 1 || n > 1000000)
        return "'" + v + "': expected auto or a whole number from 1 to 1000000";
      return "";
    },
    "auto|1..1000000");

}  // namespace

void SearchFlags::AddBudgetFlags(CLI::App* sub, bool with_method) {
  if (with_method) {
    std::string names = Join(ReasonerNames(), ", ");
    sub->add_option("--method", method, "search method: " + names)->capture_default_str();
  }
  if (auto_sized) {
    const std::string cpu = std::to_string(kCpuBudget), paper = std::to_string(kPaperBudget);
    sub->add_option("--budget", budget_arg,
                    "small-model generations (each one verified) per search (auto: " + cpu +
                        " with the embedded model on a CPU, which finish in minutes; " + paper +
                        ", the paper's, with an endpoint or --gpu-layers)")
        ->capture_default_str()
        ->check(AutoOrCount);
  } else {
    AddNumber(sub, "--budget", &budget, kBudgetRange, "small-model generations (each one verified) per search");
  }
  AddNumber(sub, "--max-verifications", &max_verifications, {0, 1000000000},
            "stop after this many verifications (0: no limit)");
  AddNumber(sub, "--max-seconds", &max_seconds, {0.0, 1e9},
            "time limit in seconds: the generation or check in progress is cancelled when it passes and the run "
            "ends with its report written (0: no limit)");
  AddNumber(sub, "--iterations", &iterations, {0, 1000000000}, "MCGS/MCTS iterations (0: until the budget is spent)");
  AddNumber(sub, "--max-depth", &max_depth, kMaxDepthRange, "step cap of a path of optimizations");
  AddNumber(sub, "--step-retries", &step_retries, {0, 100}, "MCGS: times a failed step may be sampled again");
}

void SearchFlags::AddSearchFlags(CLI::App* sub) {
  AddOnOffFlags(sub, "--close-failed-edges",
                "MCGS and the MCTS baselines: close an edge after 1 + --step-retries failures (the default)",
                "--no-close-failed-edges", "never close a failed edge, as the paper does (--protocol paper's choice)",
                &close_failed_edges);
  sub->add_option("--q", q, "MCGS: the Q that selection and rollouts rank by: mean of the backed-up values, or "
                            "their max (the paper's max backup)")
      ->capture_default_str()
      ->check(CLI::IsMember({"mean", "max"}));
  sub->add_option("--protocol", protocol,
                  "ours (the defaults) or paper: rollouts 10, --q max, --no-close-failed-edges, --no-heldout, "
                  "budget 200, no rule-based first step; a flag given explicitly still applies "
                  "(docs/search.md \"The paper's protocol\")")
      ->capture_default_str()
      ->check(CLI::IsMember({"ours", "paper"}));
  AddNumber(sub, "--c", &c, {0.0, 1e6}, "P-UCB exploration constant");
  AddNumber(sub, "--epsilon", &epsilon, {0.0, 1.0}, "rollout: probability of a random action");
  AddNumber(sub, "--lambda", &lambda, {0.0, 1e6}, "rollout: visit-count penalty");
  AddNumber(sub, "--rollouts", &rollouts, {1, 1000},
            "MCGS: rollouts from each new state per iteration (the paper uses 10; 1 did better in the simulation "
            "study, docs/search.md)");
  AddNumber(sub, "--examples", &examples, {0, 100}, "examples shown per step");
  AddNumber(sub, "--seed", &seed, kSeedRange, "the search's random seed");
  sub->add_option("--first-step", seed_step,
                  "rules: the search starts from the rules' first step, a parallel version written without a "
                  "model (docs/search.md); none: from the sequential code, as the paper does")
      ->capture_default_str()
      ->check(CLI::IsMember({"rules", "none"}));
  AddNumber(sub, "--temperature", &temperature, kTemperatureRange, "sampling temperature");
  AddNumber(sub, "--top-p", &top_p, kTopPRange, "nucleus sampling");
}

void SearchFlags::AddModelFlags(CLI::App* sub) {
  if (auto_sized) {
    sub->add_option("--max-tokens", max_tokens_arg,
                    "tokens per reply (auto: " + std::to_string(kCpuMaxTokens) +
                        " with the embedded model on a CPU; " + std::to_string(kPaperMaxTokens) +
                        " with an endpoint or --gpu-layers)")
        ->capture_default_str()
        ->check(AutoOrCount);
  } else {
    AddNumber(sub, "--max-tokens", &max_tokens, kMaxTokensRange, "tokens per reply");
  }
  sub->add_option("--retrieval", retrieval,
                  "how worked examples are picked by similarity to the current code: bm25 (code tokens) or "
                  "embeddings (cosine of mean-pooled embeddings, as the paper's CodeBERTScore-like RAG: the "
                  "embedded model's own, an endpoint's /v1/embeddings, or --embed-model's; a query that cannot "
                  "be embedded falls back to BM25)")
      ->capture_default_str()
      ->check(CLI::IsMember({"bm25", "embeddings"}));
  sub->add_option("--embed-model", embed_model,
                  "with --retrieval embeddings: a GGUF file whose llama.cpp embeddings rank the examples (default: "
                  "the search's own model)")
      ->check(CLI::ExistingFile);
  sub->add_option("--graph", graph, "reasoning graph (default: the shipped data/graph/regrapht.json)");
  sub->add_option("--prompts", prompts, "folder of prompt templates overriding the built-in ones");
  sub->add_flag("--no-cache", no_cache, "do not use or fill the model response cache");
  AddOnOffFlags(sub, "--heldout",
                "re-verify and re-time the answer on held-out inputs (new seeds) and report those numbers (the default)",
                "--no-heldout", "report the search's own measurement of the answer instead, as the paper does",
                &heldout);
  AddNumber(sub, "--max-in-flight", &max_in_flight, {1, 1024},
            "model requests outstanding at once (bench: samples of different problems in parallel; "
            "best-of-n: its samples); results are those of 1");
  sub->add_option("--pipeline", pipeline,
                  "candidates in flight: with N > 1 the model generates up to N - 1 next candidates while "
                  "one is verified (0 or 1: one after another; auto: 2 with an endpoint, 1 with the embedded "
                  "model, which would share the CPU with the checks; docs/search.md \"Pipelining\"); results "
                  "are those of 1")
      ->capture_default_str()
      ->check(DepthOrAuto);
  AddNumber(sub, "--max-endpoint-failures", &max_endpoint_failures, {0, 1000000},
            "model requests that may fail in a row (after --max-retries) before the run stops early; "
            "each one is a failed generation with its reason in the report");
}

void SearchFlags::AddShapingFlags(CLI::App* sub) {
  sub->add_option("--prefill", prefill,
                  "output shaping: start each code reply with the ```cuda fence and the includes "
                  "(auto: on for the embedded model; an endpoint cannot prefill)")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "on", "off"}));
  sub->add_option("--grammar", grammar,
                  "output shaping: constrain each code reply with a GBNF grammar (code whose brackets, "
                  "literals and comments close, the function defined last with its exact signature, then "
                  "the closing fence; auto: on for the embedded model, for an endpoint on with "
                  "--guided-decoding)")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "on", "off"}));
  sub->add_option("--wrap-up", wrap_up,
                  "output shaping with prefill and grammar: when a reply's tokens run short (a third of "
                  "--max-tokens left) and it has not begun the function, the embedded backend closes what "
                  "is open and writes the function's signature; the model writes the body")
      ->capture_default_str()
      ->check(CLI::IsMember({"on", "off"}));
  sub->add_option("--stop-at-fence", stop_at_fence,
                  "output shaping without a grammar: end a prefilled reply at its closing fence")
      ->capture_default_str()
      ->check(CLI::IsMember({"on", "off"}));
  sub->add_option("--repeat-penalty", repeat_penalty,
                  "repetition control: divide the logits of tokens seen in the last 64 generated tokens "
                  "by this (1: off; auto: 1.1 for the embedded model, off for an endpoint; an endpoint "
                  "gets it with --guided-decoding llama-server|vllm)")
      ->capture_default_str()
      ->check(PositiveOrAuto);
  sub->add_option("--dry-multiplier", dry_multiplier,
                  "repetition control: llama.cpp's DRY sampler, penalizing a token that repeats a sequence "
                  "already generated (0: off; auto: off; an endpoint gets it with --guided-decoding "
                  "llama-server)")
      ->capture_default_str()
      ->check(NonNegativeOrAuto);
}

void SearchFlags::Add(CLI::App* sub, bool with_method, bool auto_sized_flags) {
  auto_sized = auto_sized_flags;
  AddBudgetFlags(sub, with_method);
  AddSearchFlags(sub);
  AddModelFlags(sub);
  AddShapingFlags(sub);
  backend.ctx_size = 8192;  // prompts carry examples: more room than chat needs
  backend.Add(sub);
  // Combinations a validator cannot see: a usage error (exit 2) before any work.
  sub->parse_complete_callback([this, sub] {
    std::string why = CheckRepetitionForEndpoint();
    if (!why.empty()) throw CLI::ValidationError(why);
    if (auto_sized) {
      budget_auto = budget_arg == "auto";
      max_tokens_auto = max_tokens_arg == "auto";
      budget = budget_auto ? (EmbeddedOnCpu() ? kCpuBudget : kPaperBudget) : std::stoi(budget_arg);
      max_tokens = max_tokens_auto ? (EmbeddedOnCpu() ? kCpuMaxTokens : kPaperMaxTokens) : std::stoi(max_tokens_arg);
    }
    if (protocol == "paper") ApplyPaperProtocolFlags(sub);
  });
}

void SearchFlags::ApplyPaperProtocolFlags(const CLI::App* sub) {
  auto given = [sub](const char* a, const char* b = nullptr) {
    return sub->count(a) > 0 || (b && sub->count(b) > 0);
  };
  if (!given("--budget")) {
    budget = kPaperBudget;
    budget_auto = false;  // the paper's, not the auto size
  }
  if (!given("--rollouts")) rollouts = 10;
  if (!given("--q")) q = "max";
  if (!given("--close-failed-edges", "--no-close-failed-edges")) close_failed_edges = false;
  if (!given("--heldout", "--no-heldout")) heldout = false;
  if (!given("--first-step")) seed_step = "none";
}

std::string SearchFlags::CheckRepetitionForEndpoint() const {
  if (!backend.UseHttp()) return "";
  if (backend.guided == "none" && (repeat_penalty != "auto" || dry_multiplier != "auto")) {
    return "--repeat-penalty/--dry-multiplier with an endpoint need its server kind "
           "(--guided-decoding llama-server or vllm): api.openai.com refuses fields it does not know";
  }
  if (backend.guided == "vllm" && dry_multiplier != "auto" && std::stof(dry_multiplier) > 0)
    return "--dry-multiplier: vLLM has no DRY sampler (use --repeat-penalty)";
  return "";
}

SearchOptions SearchFlags::ToOptions() const {
  SearchOptions o;
  o.budget.max_generations = budget;
  o.budget.max_verifications = max_verifications;
  o.budget.max_wall_seconds = max_seconds;
  o.iterations = iterations;
  o.max_depth = max_depth;
  o.step_retries = step_retries;
  o.close_failed_edges = close_failed_edges;
  o.q = q == "max" ? SearchOptions::QRule::kMax : SearchOptions::QRule::kMean;
  o.protocol = protocol;
  o.exploration_c = c;
  o.rollout_epsilon = epsilon;
  o.rollout_lambda = lambda;
  o.rollouts = rollouts;
  o.examples_per_step = examples;
  o.seed = seed;
  o.sampling.temperature = temperature;
  o.sampling.top_p = top_p;
  o.sampling.top_k = 0;
  o.sampling.max_tokens = max_tokens;
  o.context_tokens = backend.ctx_size;
  o.max_in_flight = max_in_flight;
  o.pipeline = pipeline == "auto" ? (backend.UseHttp() ? 2 : 1) : std::stoi(pipeline);
  o.max_endpoint_failures = max_endpoint_failures;
  o.shape = Shape();
  ApplyRepetition(o.sampling);
  return o;
}

void SearchFlags::ApplyRepetition(SamplingParams& s) const {
  const bool http = backend.UseHttp();
  s.repeat_penalty = repeat_penalty == "auto" ? (http ? 1.0f : kEmbeddedRepeatPenalty)
                                              : std::stof(repeat_penalty);
  s.dry_multiplier = dry_multiplier == "auto" ? 0.0f : std::stof(dry_multiplier);
}

ShapeOptions SearchFlags::Shape() const {
  const bool http = backend.UseHttp();
  ShapeOptions s;
  s.prefill = prefill == "on" || (prefill == "auto" && !http);
  s.grammar = grammar == "on" || (grammar == "auto" && (!http || backend.guided != "none"));
  s.stop_at_fence = stop_at_fence == "on";
  s.wrap_up = wrap_up == "on";
  return s;
}

ExperimentSettings SearchFlags::Experiment(const std::string& model_id) const {
  ExperimentSettings e;
  e.method = method;
  e.model = model_id;
  e.options = ToOptions();
  e.graph = graph;
  e.retrieval = retrieval;
  e.embed_model = embed_model;
  e.seed_step = seed_step;
  e.heldout = heldout;
  return e;
}

std::string SearchFlags::ConfigJson(const std::string& model_id) const {
  return ExperimentKeyJson(Experiment(model_id));
}

Result<std::unique_ptr<SearchEnv>> MakeSearchEnv(const SearchFlags& f) {
  auto env = std::make_unique<SearchEnv>();
  if (!f.prompts.empty()) RG_RETURN_IF_ERROR(env->prompts.LoadOverrides(f.prompts));
  if (NeedsGraph(f.method)) {
    env->graph_path = f.graph.empty() ? (DataDir() / "graph" / "regrapht.json").string() : f.graph;
    auto g = LoadGraph(env->graph_path);
    if (!g.ok()) return g.status().WithContext("loading the reasoning graph");
    env->graph = std::make_unique<Graph>(std::move(*g));
    env->index = std::make_unique<ExampleIndex>(*env->graph);
  }
  BackendFlags backend = f.backend;
  backend.max_in_flight = std::max(backend.max_in_flight, f.max_in_flight);
  RG_ASSIGN_OR_RETURN(env->llm, backend.Make());
  env->model = env->llm.get();  // the cache below keeps it alive
  if (!f.no_cache) {
    auto cached = NewCachedBackend(std::move(env->llm), CacheDir() / "llm-cache.db");
    if (!cached.ok()) return cached.status();
    env->llm = std::move(*cached);
  }
  if (f.retrieval == "embeddings" && env->index) {
    LlmBackend* llm = env->llm.get();
    if (!f.embed_model.empty()) {
      LlamaOptions lo;
      lo.model_path = f.embed_model;
      lo.threads = f.backend.threads;
      lo.context_size = 2048;
      lo.max_sequences = 1;
      auto made = NewLlamaBackend(lo);
      if (!made.ok()) return made.status().WithContext("--embed-model");
      env->embedder = std::move(*made);
      llm = env->embedder.get();
    }
    Status s = env->index->UseEmbeddings(*env->graph, [llm](const std::vector<std::string>& texts) {
      return llm->Embed(texts);
    });
    if (!s.ok()) return s.WithContext("--retrieval embeddings (" + llm->Name() + ")");
  }
  return env;
}

}  // namespace regrapht::cli
