// The language-model commands: chat, bench-llm, model pull|list.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
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

namespace regrapht::cli {
namespace {

double PerSecond(int tokens, double ms) { return ms > 0 ? tokens * 1000.0 / ms : 0; }

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::string List(const std::vector<double>& v) {
  std::string out;
  char buf[32];
  for (double x : v) {
    std::snprintf(buf, sizeof buf, " %.1f", x);
    out += buf;
  }
  return out;
}

// CPU seconds this process has used (user + system, all threads): beside the
// wall time, it shows how much of a slow figure is waiting for a busy core.
double CpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_utime.tv_sec + u.ru_stime.tv_sec + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

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

// Filler text of exactly `tokens` tokens for `backend` (one more at most),
// distinct per `salt`.
Result<std::string> Filler(LlmBackend& backend, int tokens, int salt) {
  static const char* words[] = {"kernel", "thread", "block",  "warp",   "memory", "shared",
                                "global", "index",  "stride", "reduce", "launch", "grid"};
  std::string text = "Example " + std::to_string(salt) + ":";
  int i = salt * 7;
  RG_ASSIGN_OR_RETURN(int have, CountTokens(backend, text));
  while (have < tokens) {
    // Add words in steps that cannot overshoot (each word is at least one token).
    int step = std::max(1, (tokens - have) / 2);
    for (int k = 0; k < step; ++k) text += std::string(" ") + words[(i++ * 5 + k) % 12];
    RG_ASSIGN_OR_RETURN(have, CountTokens(backend, text));
  }
  return text;
}

// Tokens the chat template adds around one user message.
Result<int> TemplateOverhead(LlmBackend& backend) {
  ChatRequest r;
  r.messages = {{Role::kUser, "Hello"}};
  r.sampling.max_tokens = 1;
  r.sampling.temperature = 0;
  RG_ASSIGN_OR_RETURN(ChatResponse resp, backend.Chat(r));
  RG_ASSIGN_OR_RETURN(int bare, CountTokens(backend, "Hello"));
  return resp.tokens_prompt - bare;
}

struct BenchLlmState {
  BackendFlags backend;
  int prompt_tokens = 512;
  int gen_tokens = 128;
  int prefix_tokens = 1500;
  int reps = 5;
  int batch = 0;
  bool json = false;
  bool mixed = false;
};

// Keeps the measured speed for optimize's estimate of a search's duration (RecordModelSpeed).
void CacheModelSpeed(LlmBackend& b, const std::vector<double>& pp, const std::vector<double>& tg) {
  auto path = RecordModelSpeed(b, pp.empty() ? 0 : Median(pp), Median(tg), "bench-llm");
  if (path.ok()) {
    std::printf("cached     %s (optimize estimates searches from it)\n", path->string().c_str());
  } else {
    std::fprintf(stderr, "regrapht: warning: speed cache: %s\n", path.status().ToString().c_str());
  }
}

// 1. Prompt processing: a fresh prompt each repetition, nothing reused,
// sized so that template + text is --prompt-tokens (as llama-bench's ppN);
// 2. generation from a short prompt, EOS ignored, greedy. Prints and adds
// "prompt" and "generate" to `out`.
Status MeasurePromptAndGenerate(LlmBackend& b, const BenchLlmState& s, OrderedJson* out) {
  RG_ASSIGN_OR_RETURN(int overhead, TemplateOverhead(b));
  std::vector<double> pp, tg;
  int pp_tokens = 0;
  for (int rep = 0; rep < s.reps && s.prompt_tokens > 0; ++rep) {
    RG_ASSIGN_OR_RETURN(std::string text, Filler(b, std::max(1, s.prompt_tokens - overhead), rep));
    ChatRequest r;
    r.messages = {{Role::kUser, text}};
    r.sampling.max_tokens = 1;
    r.sampling.temperature = 0;
    RG_ASSIGN_OR_RETURN(ChatResponse resp, b.Chat(r));
    pp_tokens = resp.tokens_prompt_evaluated;
    pp.push_back(PerSecond(resp.tokens_prompt_evaluated, resp.time_prompt_ms));
  }
  for (int rep = 0; rep < s.reps && s.gen_tokens > 0; ++rep) {
    ChatRequest r;
    r.messages = {{Role::kUser, "Write a long story " + std::to_string(rep)}};
    r.sampling.max_tokens = s.gen_tokens;
    r.sampling.temperature = 0;
    r.sampling.ignore_eos = true;
    RG_ASSIGN_OR_RETURN(ChatResponse resp, b.Chat(r));
    tg.push_back(PerSecond(resp.tokens_generated, resp.time_generation_ms));
  }
  if (!pp.empty())
    (*out)["prompt"] = {{"tokens", pp_tokens}, {"median_tok_s", Median(pp)}, {"reps_tok_s", pp}};
  if (!tg.empty())
    (*out)["generate"] = {
        {"tokens", s.gen_tokens}, {"median_tok_s", Median(tg)}, {"reps_tok_s", tg}};
  if (!pp.empty()) {
    std::printf("prompt     %d tokens: median %.1f tok/s (reps:%s)\n", pp_tokens, Median(pp),
                List(pp).c_str());
  }
  if (!tg.empty()) {
    std::printf("generate   %d tokens: median %.2f tok/s (reps:%s)\n", s.gen_tokens, Median(tg),
                List(tg).c_str());
  }
  if (!tg.empty()) CacheModelSpeed(b, pp, tg);
  return Status::Ok();
}

// The --batch requests of repetition `rep`: the same prompt, or with `mixed`
// different prompts sharing a system prompt.
std::vector<ChatRequest> BatchRequests(const BenchLlmState& s, bool mixed, int rep) {
  std::vector<ChatRequest> rs(s.batch);
  for (int i = 0; i < s.batch; ++i) {
    ChatRequest& r = rs[i];
    r.messages = {{Role::kUser, "Write a CUDA kernel for a prefix sum " + std::to_string(rep)}};
    if (mixed) {
      static const char* kTasks[] = {"a prefix sum",   "a histogram",  "a matrix transpose",
                                     "a reduction",    "SAXPY",        "a stencil",
                                     "a bitonic sort", "a dot product"};
      r.messages = {{Role::kSystem, "You are an expert CUDA programmer. Answer with code only."},
                    {Role::kUser, std::string("Write a CUDA kernel for ") + kTasks[i % 8] + " (" +
                                      std::to_string(rep) + "." + std::to_string(i) + ")"}};
    }
    r.sampling.max_tokens = s.gen_tokens;
    r.sampling.temperature = 0.7f;
    r.sampling.seed = 1 + rep + i;
    r.sampling.ignore_eos = true;
  }
  return rs;
}

// One repetition of the batch comparison: the requests one after another,
// then together; prints the line and adds the figures to `out` and the ratios.
Status MeasureBatchRep(LlmBackend& b, const BenchLlmState& s, bool mixed, int rep,
                       std::vector<double>* ratios, std::vector<double>* cpu_ratios,
                       OrderedJson* out) {
  std::vector<ChatRequest> rs = BatchRequests(s, mixed, rep);
  auto t0 = std::chrono::steady_clock::now();
  double c0 = CpuSeconds();
  int seq_tokens = 0;
  for (const auto& r : rs) {
    RG_ASSIGN_OR_RETURN(ChatResponse resp, b.Chat(r));
    seq_tokens += resp.tokens_generated;
  }
  double seq_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  double seq_cpu = CpuSeconds() - c0;
  if (!mixed) {
    rs.resize(1);
    rs[0].n = s.batch;
  }
  t0 = std::chrono::steady_clock::now();
  c0 = CpuSeconds();
  RG_ASSIGN_OR_RETURN(std::vector<ChatResponse> resp, b.ChatBatch(rs));
  double batch_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  double batch_cpu = CpuSeconds() - c0;
  int batch_tokens = 0;
  for (const auto& one : resp) batch_tokens += one.tokens_generated;
  double ratio = (batch_tokens / batch_s) / (seq_tokens / seq_s);
  double cpu_ratio = (batch_tokens / batch_cpu) / (seq_tokens / seq_cpu);
  ratios->push_back(ratio);
  cpu_ratios->push_back(cpu_ratio);
  std::printf(
      "%s rep %d: %d x %d tokens: %d requests %.2f s (%.1f tok/s, %.2f cpu-s), "
      "%s %.2f s (%.1f tok/s, %.2f cpu-s): %.2fx (cpu %.2fx)\n",
      mixed ? "mixed     " : "batch     ", rep, s.batch, s.gen_tokens, s.batch, seq_s,
      seq_tokens / seq_s, seq_cpu,
      mixed ? "one ChatBatch" : ("n=" + std::to_string(s.batch)).c_str(), batch_s,
      batch_tokens / batch_s, batch_cpu, ratio, cpu_ratio);
  std::fflush(stdout);
  (*out)[mixed ? "mixed" : "batch"].push_back({{"n", s.batch},
                                               {"tokens", s.gen_tokens},
                                               {"sequential_s", seq_s},
                                               {"sequential_tok_s", seq_tokens / seq_s},
                                               {"sequential_cpu_s", seq_cpu},
                                               {"batched_s", batch_s},
                                               {"batched_tok_s", batch_tokens / batch_s},
                                               {"batched_cpu_s", batch_cpu}});
  return Status::Ok();
}

// 3. Batched samples: aggregate tokens/s of n = N in one request (one
// llama_decode per step for all N sequences) against N requests, both with
// prefix reuse (the N requests evaluate the prompt once, then only its last
// token again) and EOS ignored (same token counts). Same prompt (n = N in
// one request), then, with --mixed, N requests with different prompts
// sharing a system prompt (one ChatBatch).
Status MeasureBatches(const BenchLlmState& s, const LlamaInfo& info, OrderedJson* out) {
  std::unique_ptr<LlmBackend> batch_backend;
  if (s.batch > 0) {
    RG_ASSIGN_OR_RETURN(batch_backend, s.backend.Make(/*reuse_prefix=*/true));
  }
  for (bool mixed : {false, true}) {
    if (mixed && !s.mixed) break;
    std::vector<double> batch_ratios, cpu_ratios;
    for (int rep = 0; rep < s.reps && s.batch > 0; ++rep) {
      RG_RETURN_IF_ERROR(
          MeasureBatchRep(*batch_backend, s, mixed, rep, &batch_ratios, &cpu_ratios, out));
    }
    if (!batch_ratios.empty()) {
      std::printf("%s %s, %d threads: median %.2fx aggregate tokens/s (cpu-time ratio %.2fx)\n",
                  mixed ? "mixed     " : "batch     ", info.description.c_str(), info.threads,
                  Median(batch_ratios), Median(cpu_ratios));
    }
  }
  return Status::Ok();
}

// 4. Prefix reuse: two requests sharing a long system prompt.
Status MeasurePrefixReuse(const BenchLlmState& s, OrderedJson* out) {
  RG_ASSIGN_OR_RETURN(std::unique_ptr<LlmBackend> warm_backend,
                      s.backend.Make(/*reuse_prefix=*/true));
  std::vector<double> ratios, first_ms, second_ms;
  int first_eval = 0, second_eval = 0, prompt_len = 0;
  for (int rep = 0; rep < s.reps; ++rep) {
    RG_ASSIGN_OR_RETURN(std::string prefix, Filler(*warm_backend, s.prefix_tokens, 100 + rep));
    ChatRequest a;
    a.messages = {{Role::kSystem, prefix}, {Role::kUser, "Parallelise loop one."}};
    a.sampling.max_tokens = 1;
    a.sampling.temperature = 0;
    ChatRequest c = a;
    c.messages[1].content = "Now parallelise the second loop, with shared memory.";
    auto ra = warm_backend->Chat(a);
    auto rc = warm_backend->Chat(c);
    if (!ra.ok()) return ra.status();
    if (!rc.ok()) return rc.status();
    first_ms.push_back(ra->time_prompt_ms);
    second_ms.push_back(rc->time_prompt_ms);
    ratios.push_back(rc->time_prompt_ms / ra->time_prompt_ms);
    first_eval = ra->tokens_prompt_evaluated;
    second_eval = rc->tokens_prompt_evaluated;
    prompt_len = rc->tokens_prompt;
  }
  std::printf(
      "prefix     %d-token prompt sharing a ~%d-token prefix: first request %.1f ms (%d "
      "evaluated), second %.1f ms (%d evaluated): median ratio %.1f%%\n",
      prompt_len, s.prefix_tokens, Median(first_ms), first_eval, Median(second_ms), second_eval,
      100 * Median(ratios));
  (*out)["prefix"] = {{"prompt_tokens", prompt_len},    {"prefix_tokens", s.prefix_tokens},
                      {"first_ms", Median(first_ms)},   {"first_evaluated", first_eval},
                      {"second_ms", Median(second_ms)}, {"second_evaluated", second_eval},
                      {"median_ratio", Median(ratios)}};
  return Status::Ok();
}

// bench-llm once its flags are parsed.
int RunBenchLlm(BenchLlmState& s) {
  OrderedJson out;
  if (s.backend.UseHttp()) {
    return Fail(Status::InvalidArgument("bench-llm measures the embedded backend: pass --model"));
  }
  if (s.backend.ctx_size == 0) {
    int need =
        std::max(s.prompt_tokens, s.prefix_tokens + 64) + s.gen_tokens * std::max(1, s.batch) + 128;
    s.backend.ctx_size = (need + 255) / 256 * 256;
  }
  auto cold = s.backend.Make(/*reuse_prefix=*/false);
  if (!cold.ok()) return Fail(cold.status());
  LlmBackend& b = **cold;
  auto info = GetLlamaInfo(b);
  std::printf("model      %s (%s, %.0fM parameters)\nthreads    %d\ncontext    %d tokens\n",
              b.ModelId().c_str(), info->description.c_str(), info->parameters / 1e6, info->threads,
              info->context_size);
  out["model"] = b.ModelId();
  out["description"] = info->description;
  out["parameters"] = info->parameters;
  out["threads"] = info->threads;
  out["context"] = info->context_size;
  // Warm-up: page the weights in.
  ChatRequest warm;
  warm.messages = {{Role::kUser, "Hello"}};
  warm.sampling.max_tokens = 4;
  warm.sampling.temperature = 0;
  if (auto w = b.Chat(warm); !w.ok()) return Fail(w.status());
  if (Status st = MeasurePromptAndGenerate(b, s, &out); !st.ok()) return Fail(st);
  cold->reset();
  if (Status st = MeasureBatches(s, *info, &out); !st.ok()) return Fail(st);
  if (s.prefix_tokens > 0) {
    if (Status st = MeasurePrefixReuse(s, &out); !st.ok()) return Fail(st);
  }
  if (s.json) EmitJson(out);
  return kExitOk;
}

std::function<int()> BenchLlm(CLI::App* sub) {
  auto s = std::make_shared<BenchLlmState>();
  s->backend.Add(sub);
  s->backend.ctx_size = 0;  // sized from the workload below
  AddNumber(sub, "--prompt-tokens", &s->prompt_tokens, {0, 1000000},
            "Prompt length for prompt processing (0: skip it)");
  AddNumber(sub, "--gen-tokens", &s->gen_tokens, {0, 1000000},
            "Tokens generated per repetition (0: skip it)");
  AddNumber(sub, "--prefix-tokens", &s->prefix_tokens, {0, 1000000},
            "Shared prefix for the prefix-reuse figure (0: skip it)");
  AddNumber(sub, "--reps", &s->reps, {1, 10000}, "Repetitions (medians are reported)");
  AddNumber(sub, "--batch", &s->batch, {0, 64},
            "Also compare N samples of --gen-tokens each from one prompt: one request with n = N "
            "(decoded together) against N requests one after another (0: skip)");
  sub->add_flag(
      "--mixed", s->mixed,
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
