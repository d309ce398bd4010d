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

}  // namespace

void SearchFlags::Add(CLI::App* sub, bool with_method) {
  if (with_method) {
    std::string names = Join(ReasonerNames(), ", ");
    sub->add_option("--method", method, "search method: " + names)->capture_default_str();
  }
  AddNumber(sub, "--budget", &budget, kBudgetRange, "small-model generations (each one verified) per search");
  AddNumber(sub, "--max-verifications", &max_verifications, {0, 1000000000},
            "stop after this many verifications (0: no limit)");
  AddNumber(sub, "--max-seconds", &max_seconds, {0.0, 1e9}, "stop after this much wall-clock time (0: no limit)");
  AddNumber(sub, "--iterations", &iterations, {0, 1000000000}, "MCGS/MCTS iterations (0: until the budget is spent)");
  AddNumber(sub, "--max-depth", &max_depth, kMaxDepthRange, "step cap of a path of optimizations");
  AddNumber(sub, "--step-retries", &step_retries, {0, 100}, "MCGS: times a failed step may be sampled again");
  AddNumber(sub, "--c", &c, {0.0, 1e6}, "P-UCB exploration constant");
  AddNumber(sub, "--epsilon", &epsilon, {0.0, 1.0}, "rollout: probability of a random action");
  AddNumber(sub, "--lambda", &lambda, {0.0, 1e6}, "rollout: visit-count penalty");
  AddNumber(sub, "--rollouts", &rollouts, {1, 1000},
            "MCGS: rollouts from each new state per iteration (the paper uses 10; 1 did better in the simulation "
            "study, docs/search.md)");
  AddNumber(sub, "--examples", &examples, {0, 100}, "examples shown per step");
  AddNumber(sub, "--seed", &seed, kSeedRange, "search seed");
  AddNumber(sub, "--temperature", &temperature, kTemperatureRange, "sampling temperature");
  AddNumber(sub, "--top-p", &top_p, kTopPRange, "nucleus sampling");
  AddNumber(sub, "--max-tokens", &max_tokens, kMaxTokensRange, "tokens per reply");
  sub->add_option("--retrieval", retrieval,
                  "how worked examples are picked by similarity to the current code: bm25 (code tokens) or "
                  "embeddings (the endpoint's /v1/embeddings; needs --endpoint)")
      ->capture_default_str()
      ->check(CLI::IsMember({"bm25", "embeddings"}));
  sub->add_option("--graph", graph, "reasoning graph (default: the shipped data/graph/regrapht.json)");
  sub->add_option("--prompts", prompts, "folder of prompt templates overriding the built-in ones");
  sub->add_flag("--no-cache", no_cache, "do not use or fill the model response cache");
  sub->add_flag("--heldout,!--no-heldout", heldout,
                "re-verify and re-time the answer on held-out inputs (new seeds) and report those numbers "
                "(default; --no-heldout reports the search's own measurement, as the paper does)")
      ->capture_default_str();
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
  backend.ctx_size = 8192;  // prompts carry examples: more room than chat needs
  backend.Add(sub);
  // Combinations a validator cannot see: a usage error (exit 2) before any work.
  sub->parse_complete_callback([this] {
    std::string why = CheckRepetitionForEndpoint();
    if (!why.empty()) throw CLI::ValidationError(why);
  });
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

std::string SearchFlags::ConfigJson(const std::string& model_id) const {
  OrderedJson j = {{"method", method},   {"model", model_id},     {"budget", budget},
                   {"iterations", iterations}, {"max_depth", max_depth},
                   {"step_retries", step_retries}, {"c", c},
                   {"epsilon", epsilon}, {"lambda", lambda},       {"rollouts", rollouts}, {"examples", examples},
                   {"temperature", temperature}, {"top_p", top_p}, {"max_tokens", max_tokens},
                   {"context", backend.ctx_size}, {"graph", graph},
                   {"retrieval", retrieval}, {"heldout", heldout}};
  // Only when on, so that unshaped runs keep their earlier configuration.
  ShapeOptions s = Shape();
  if (s.any()) j["shape"] = {{"prefill", s.prefill}, {"grammar", s.grammar}, {"stop_at_fence", s.stop_at_fence}};
  // The balanced grammar and the wrap-up (2026-12): keyed so that rows of the
  // earlier line-based grammar are not mixed with these.
  if (s.grammar) j["shape"]["grammar_form"] = "balanced";
  if (s.prefill && s.grammar && s.wrap_up) j["shape"]["wrap_up"] = true;
  SamplingParams sp;
  ApplyRepetition(sp);
  if (sp.repetition_control()) {
    j["repetition"] = {{"repeat_penalty", sp.repeat_penalty}, {"repeat_last_n", sp.repeat_last_n},
                       {"dry_multiplier", sp.dry_multiplier}, {"dry_base", sp.dry_base},
                       {"dry_allowed_length", sp.dry_allowed_length}};
  }
  return JsonLine(j);
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
  if (!f.no_cache) {
    auto cached = NewCachedBackend(std::move(env->llm), CacheDir() / "llm-cache.db");
    if (!cached.ok()) return cached.status();
    env->llm = std::move(*cached);
  }
  if (f.retrieval == "embeddings" && env->index) {
    LlmBackend* llm = env->llm.get();
    Status s = env->index->UseEmbeddings(*env->graph, [llm](const std::vector<std::string>& texts) {
      return llm->Embed(texts);
    });
    if (!s.ok()) return s.WithContext("--retrieval embeddings (" + llm->Name() + ")");
  }
  return env;
}

}  // namespace regrapht::cli
