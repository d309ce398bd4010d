// The language-model commands: chat, bench-llm, model pull|list.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <iterator>
#include <vector>

#include "cli/backend_flags.h"
#include "cli/commands.h"
#include "cli/json_output.h"
#include "cli/number_flags.h"
#include "regrapht/files.h"
#include "regrapht/llm.h"
#include "regrapht/llm_bench.h"

namespace regrapht::cli {
namespace {

double PerSecond(int tokens, double ms) { return ms > 0 ? tokens * 1000.0 / ms : 0; }

// ---- chat ---------------------------------------------------------------------------

struct ChatState {
  BackendFlags backend;
  std::string system;
  std::string prompt;
  float temperature = 0.7f;
  float top_p = 0.9f;
  int top_k = 40;
  int max_tokens = 512;
  uint64_t seed = 1;
  int n = 1;
  bool no_cache = false;
  std::string cache_path;
  std::vector<std::string> stop;
  bool json = false;
};

// chat's backend, behind the response cache unless --no-cache.
Result<std::unique_ptr<LlmBackend>> MakeChatBackend(const ChatState& s,
                                                    std::unique_ptr<LlmBackend> backend) {
  if (s.no_cache) return backend;
  std::filesystem::path db = s.cache_path.empty()
                                 ? CacheDir() / "llm-cache.db"
                                 : std::filesystem::path(s.cache_path) / "llm-cache.db";
  std::error_code ec;
  if (!s.cache_path.empty() && (std::filesystem::is_regular_file(s.cache_path, ec) ||
                                std::filesystem::path(s.cache_path).extension() == ".db")) {
    // The old meaning, kept for one release: chat's --cache was the database file.
    std::fprintf(stderr,
                 "regrapht: warning: chat --cache FILE.db is deprecated; --cache is the cache "
                 "folder in every "
                 "command (the responses are in FOLDER/llm-cache.db)\n");
    db = s.cache_path;
  }
  return NewCachedBackend(std::move(backend), db);
}

// The reply on stdout (--json: the whole response), and its figures on stderr.
void PrintChatResponse(const ChatState& s, const LlmBackend& backend,
                       const std::optional<LlamaInfo>& info, const ChatResponse& r) {
  for (size_t i = 0; i < r.choices.size() && !s.json; ++i) {
    if (r.choices.size() > 1) std::printf("--- sample %zu ---\n", i + 1);
    std::printf("%s\n", r.choices[i].text.c_str());
  }
  std::fflush(stdout);
  if (s.json) {
    OrderedJson choices = OrderedJson::array();
    for (const auto& c : r.choices) {
      choices.push_back(
          {{"text", c.text}, {"finish_reason", std::string(FinishReasonName(c.finish_reason))}});
    }
    EmitJson(OrderedJson{{"backend", backend.Name()},
                         {"model", r.model},
                         {"choices", choices},
                         {"tokens_prompt", r.tokens_prompt},
                         {"tokens_prompt_evaluated", r.tokens_prompt_evaluated},
                         {"tokens_generated", r.tokens_generated},
                         {"time_prompt_ms", r.time_prompt_ms},
                         {"time_generation_ms", r.time_generation_ms},
                         {"from_cache", r.from_cache}});
  }
  std::string finish;
  for (const auto& c : r.choices) {
    finish += (finish.empty() ? "" : ",") + std::string(FinishReasonName(c.finish_reason));
  }
  std::fprintf(
      stderr,
      "[%s %s%s] prompt %d tokens (%d evaluated) %.1f ms (%.0f tok/s) | generated %d "
      "tokens %.1f ms (%.1f tok/s) | finish %s%s\n",
      backend.Name().c_str(), r.model.c_str(),
      info ? (", " + std::to_string(info->threads) + " threads, template " + info->chat_template)
                 .c_str()
           : "",
      r.tokens_prompt, r.tokens_prompt_evaluated, r.time_prompt_ms,
      PerSecond(r.tokens_prompt_evaluated, r.time_prompt_ms), r.tokens_generated,
      r.time_generation_ms, PerSecond(r.tokens_generated, r.time_generation_ms), finish.c_str(),
      r.from_cache ? " | from cache" : "");
}

// chat, once its flags are parsed.
int RunChat(ChatState& s) {
  if (s.prompt == "-") {
    s.prompt.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  }
  auto made = s.backend.Make();
  if (!made.ok()) return Fail(made.status());
  const std::optional<LlamaInfo> info = GetLlamaInfo(**made);
  auto backend = MakeChatBackend(s, std::move(*made));
  if (!backend.ok()) return Fail(backend.status());
  ChatRequest request;
  if (!s.system.empty()) request.messages.push_back({Role::kSystem, s.system});
  request.messages.push_back({Role::kUser, s.prompt});
  request.sampling.temperature = s.temperature;
  request.sampling.top_p = s.top_p;
  request.sampling.top_k = s.top_k;
  request.sampling.max_tokens = s.max_tokens;
  request.sampling.seed = s.seed;
  request.sampling.stop = s.stop;
  request.n = s.n;
  auto response = (*backend)->Chat(request);
  if (!response.ok()) return Fail(response.status());
  PrintChatResponse(s, **backend, info, *response);
  return kExitOk;
}

std::function<int()> Chat(CLI::App* sub) {
  auto s = std::make_shared<ChatState>();
  s->backend.Add(sub);
  sub->add_option("--system", s->system, "System prompt");
  AddNumber(sub, "--temperature", &s->temperature, kTemperatureRange,
            "sampling temperature (0: greedy)");
  AddNumber(sub, "--top-p", &s->top_p, kTopPRange, "nucleus sampling");
  AddNumber(sub, "--top-k", &s->top_k, {0, 1000000}, "top-k sampling (0: off)");
  AddNumber(sub, "--max-tokens", &s->max_tokens, kMaxTokensRange, "tokens per reply");
  AddNumber(sub, "--seed", &s->seed, kSeedRange, "sampling seed");
  AddNumber(sub, "-n,--samples", &s->n, {1, 1024}, "Independent samples");
  sub->add_option("--stop", s->stop, "Stop string (repeatable)");
  sub->add_flag("--no-cache", s->no_cache, "Bypass the response cache");
  sub->add_option(
      "--cache", s->cache_path,
      "cache folder (default $REGRAPHT_CACHE_DIR or ~/.cache/regrapht); the responses are in "
      "its llm-cache.db");
  sub->add_option("prompt", s->prompt, "The user message (\"-\": read standard input)")->required();
  AddJsonFlag(sub, &s->json,
              "the reply (choices with their finish reasons, token counts, timings)");
  return [s] { return RunChat(*s); };
}

// ---- bench-llm ------------------------------------------------------------------------

struct BenchLlmState {
  BackendFlags backend;
  LlmBenchOptions o;  // the workload flags bind into it (regrapht/llm_bench.h)
  bool json = false;
};

// bench-llm's measurements as JSON.
OrderedJson BenchLlmJson(const LlmBenchReport& r) {
  OrderedJson out;
  out["model"] = r.model;
  out["description"] = r.info.description;
  out["parameters"] = r.info.parameters;
  out["threads"] = r.info.threads;
  out["context"] = r.info.context_size;
  auto figure = [](const LlmSpeedFigure& f) {
    return OrderedJson{
        {"tokens", f.tokens}, {"median_tok_s", f.median_tok_s}, {"reps_tok_s", f.reps_tok_s}};
  };
  if (r.prompt) out["prompt"] = figure(*r.prompt);
  if (r.generate) out["generate"] = figure(*r.generate);
  for (bool mixed : {false, true}) {
    for (const LlmBatchRep& b : mixed ? r.mixed : r.batch) {
      out[mixed ? "mixed" : "batch"].push_back({{"n", b.n},
                                                {"tokens", b.tokens},
                                                {"sequential_s", b.sequential_s},
                                                {"sequential_tok_s", b.sequential_tok_s},
                                                {"sequential_cpu_s", b.sequential_cpu_s},
                                                {"batched_s", b.batched_s},
                                                {"batched_tok_s", b.batched_tok_s},
                                                {"batched_cpu_s", b.batched_cpu_s}});
    }
  }
  if (r.prefix) {
    const LlmPrefixFigure& p = *r.prefix;
    out["prefix"] = {{"prompt_tokens", p.prompt_tokens}, {"prefix_tokens", p.prefix_tokens},
                     {"first_ms", p.first_ms},           {"first_evaluated", p.first_evaluated},
                     {"second_ms", p.second_ms},         {"second_evaluated", p.second_evaluated},
                     {"median_ratio", p.median_ratio}};
  }
  return out;
}

// bench-llm once its flags are parsed.
int RunBenchLlm(BenchLlmState& s) {
  if (s.backend.UseHttp()) {
    return Fail(Status::InvalidArgument("bench-llm measures the embedded backend: pass --model"));
  }
  if (s.backend.ctx_size == 0) {
    int need = std::max(s.o.prompt_tokens, s.o.prefix_tokens + 64) + s.o.gen_tokens * std::max(1, s.o.batch) + 128;
    s.backend.ctx_size = (need + 255) / 256 * 256;
  }
  LlmBenchOptions& o = s.o;
  const BackendFlags& flags = s.backend;
  o.make_backend = [&flags](bool reuse_prefix) { return flags.Make(reuse_prefix); };
  o.on_line = [](const std::string& line) {
    std::printf("%s\n", line.c_str());
    std::fflush(stdout);
  };
  o.on_warning = [](const std::string& what) {
    std::fprintf(stderr, "regrapht: warning: %s\n", what.c_str());
  };
  auto report = MeasureLlm(o);
  if (!report.ok()) return Fail(report.status());
  if (s.json) EmitJson(BenchLlmJson(*report));
  return kExitOk;
}

std::function<int()> BenchLlm(CLI::App* sub) {
  auto s = std::make_shared<BenchLlmState>();
  s->backend.Add(sub);
  s->backend.ctx_size = 0;  // sized from the workload below
  AddNumber(sub, "--prompt-tokens", &s->o.prompt_tokens, {0, 1000000},
            "Prompt length for prompt processing (0: skip it)");
  AddNumber(sub, "--gen-tokens", &s->o.gen_tokens, {0, 1000000},
            "Tokens generated per repetition (0: skip it)");
  AddNumber(sub, "--prefix-tokens", &s->o.prefix_tokens, {0, 1000000},
            "Shared prefix for the prefix-reuse figure (0: skip it)");
  AddNumber(sub, "--reps", &s->o.reps, {1, 10000}, "Repetitions (medians are reported)");
  AddNumber(sub, "--batch", &s->o.batch, {0, 64},
            "Also compare N samples of --gen-tokens each from one prompt: one request with n = N "
            "(decoded together) against N requests one after another (0: skip)");
  sub->add_flag(
      "--mixed", s->o.mixed,
      "With --batch: also N requests with different prompts (one system prompt) in one ChatBatch "
      "against the same N one after another");
  AddJsonFlag(sub, &s->json, "the measurements (medians and each repetition)");
  return [s] { return RunBenchLlm(*s); };
}

// ---- model pull|list --------------------------------------------------------------------

std::string Size(int64_t bytes) {
  char buf[32];
  if (bytes < 0) return "?";
  std::snprintf(buf, sizeof buf, "%.1f MB", bytes / 1e6);
  return buf;
}

// model list: the registry, which entries are present, the other GGUF files.
void PrintModelCatalog(const ModelCatalog& catalog, bool json) {
  std::printf("models folder: %s\n\n", catalog.models_dir.c_str());
  std::printf("%-24s %-9s %-10s %s\n", "NAME", "PRESENT", "SIZE", "DESCRIPTION");
  for (const auto& m : catalog.models) {
    std::string name = m.name + (m.is_default ? " *" : "");
    std::printf("%-24s %-9s %-10s %s\n", name.c_str(), m.path.empty() ? "no" : "yes",
                Size(m.size_bytes).c_str(), m.description.c_str());
  }
  bool header = false;
  for (const auto& p : catalog.other) {
    if (!header) std::printf("\nother GGUF files:\n");
    header = true;
    std::printf("  %-40s %s\n", p.path.filename().c_str(), Size(p.size_bytes).c_str());
  }
  std::printf("\n* default model. Pull with: regrapht model pull NAME|URL\n");
  if (!json) return;
  OrderedJson models = OrderedJson::array(), other = OrderedJson::array();
  for (const auto& m : catalog.models) {
    const bool present = !m.path.empty();
    models.push_back(
        {{"name", m.name},
         {"default", m.is_default},
         {"present", present},
         {"path", present ? OrderedJson(m.path.string()) : OrderedJson(nullptr)},
         {"size_bytes", m.size_bytes >= 0 ? OrderedJson(m.size_bytes) : OrderedJson(nullptr)},
         {"description", m.description}});
  }
  for (const auto& p : catalog.other)
    other.push_back({{"path", p.path.string()}, {"size_bytes", p.size_bytes}});
  EmitJson(OrderedJson{
      {"models_dir", catalog.models_dir.string()}, {"models", models}, {"other", other}});
}

std::function<int()> Model(CLI::App* sub) {
  struct State {
    std::string target;
    std::string models_dir;
    bool quiet = false, json = false;
  };
  auto s = std::make_shared<State>();
  sub->require_subcommand(1);
  sub->add_option("--models-dir", s->models_dir,
                  "Models folder (default: $REGRAPHT_MODELS_DIR or <cache>/models)");
  CLI::App* pull = sub->add_subcommand("pull", "Download a model (registry name or .gguf URL)");
  pull->add_option("model", s->target, "Registry name (e.g. smollm2-135m) or URL")->required();
  // Also after the subcommand, as docs/llm.md writes it (model pull NAME --models-dir DIR).
  pull->add_option("--models-dir", s->models_dir,
                   "Models folder (default: $REGRAPHT_MODELS_DIR or <cache>/models)");
  pull->add_flag("-q,--quiet", s->quiet, "No progress bar");
  AddJsonFlag(pull, &s->json, "the downloaded file's path ({\"path\": ...})");
  CLI::App* list = sub->add_subcommand("list", "List the registry and the models present");
  list->add_option("--models-dir", s->models_dir,
                   "Models folder (default: $REGRAPHT_MODELS_DIR or <cache>/models)");
  AddJsonFlag(list, &s->json, "the registry and the files present");
  return [s, pull, list] {
    std::filesystem::path dir = s->models_dir.empty() ? ModelsDir() : ExpandUser(s->models_dir);
    if (pull->parsed()) {
      auto path = PullModelFile(s->target, dir, /*progress=*/!s->quiet);
      if (!path.ok()) return Fail(path.status());
      if (s->json) {
        EmitJson(OrderedJson{{"path", path->string()}});
      } else {
        std::printf("%s\n", path->c_str());
      }
      return kExitOk;
    }
    if (list->parsed()) {
      auto catalog = ListModelCatalog(dir);
      if (!catalog.ok()) return Fail(catalog.status());
      PrintModelCatalog(*catalog, s->json);
      return kExitOk;
    }
    return kExitUsage;
  };
}

}  // namespace

std::function<int()> ChatCommand(CLI::App* sub) { return Chat(sub); }
std::function<int()> BenchLlmCommand(CLI::App* sub) { return BenchLlm(sub); }
std::function<int()> ModelCommand(CLI::App* sub) { return Model(sub); }

}  // namespace regrapht::cli
