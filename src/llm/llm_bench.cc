// BenchLlm (regrapht/llm_bench.h): `regrapht bench-llm`'s measurements of
// the embedded model.
#include "regrapht/llm_bench.h"

#include <fmt/format.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <utility>

#include "llm/speed.h"
#include "regrapht/llm.h"

namespace regrapht {
namespace {

double TokensPerSecond(int tokens, double ms) { return ms > 0 ? tokens * 1000.0 / ms : 0; }

// " 812.3 790.1": each repetition's figure.
std::string RepsText(const std::vector<double>& v) {
  std::string out;
  for (double x : v) out += fmt::format(" {:.1f}", x);
  return out;
}

// CPU seconds this process has used (user + system, all threads): beside the
// wall time, it shows how much of a slow figure is waiting for a busy core.
double ProcessCpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_utime.tv_sec + u.ru_stime.tv_sec + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

class LlmBench {
 public:
  explicit LlmBench(const LlmBenchOptions& o) : o_(o) {}

  Result<LlmBenchReport> Run();

 private:
  void Line(const std::string& line) const {
    if (o_.on_line) o_.on_line(line);
  }
  Result<std::string> Filler(LlmBackend& backend, int tokens, int salt);
  Result<int> TemplateOverhead(LlmBackend& backend);
  void RecordSpeed(LlmBackend& b, const std::vector<double>& pp, const std::vector<double>& tg);
  Status MeasurePromptAndGenerate(LlmBackend& b);
  std::vector<ChatRequest> BatchRequests(bool mixed, int rep) const;
  Status MeasureBatchRep(LlmBackend& b, bool mixed, int rep, std::vector<double>* ratios,
                         std::vector<double>* cpu_ratios);
  Status MeasureBatches();
  Status MeasurePrefixReuse();

  const LlmBenchOptions& o_;
  LlmBenchReport report_;
};

// Filler text of exactly `tokens` tokens for `backend` (one more at most),
// distinct per `salt`.
Result<std::string> LlmBench::Filler(LlmBackend& backend, int tokens, int salt) {
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
Result<int> LlmBench::TemplateOverhead(LlmBackend& backend) {
  ChatRequest r;
  r.messages = {{Role::kUser, "Hello"}};
  r.sampling.max_tokens = 1;
  r.sampling.temperature = 0;
  RG_ASSIGN_OR_RETURN(ChatResponse resp, backend.Chat(r));
  RG_ASSIGN_OR_RETURN(int bare, CountTokens(backend, "Hello"));
  return resp.tokens_prompt - bare;
}

// Keeps the measured speed for optimize's estimate of a search's duration.
void LlmBench::RecordSpeed(LlmBackend& b, const std::vector<double>& pp,
                           const std::vector<double>& tg) {
  auto path = RecordModelSpeed(b, pp.empty() ? 0 : llm::Median(pp), llm::Median(tg), "bench-llm");
  if (path.ok()) {
    Line(fmt::format("cached     {} (optimize estimates searches from it)", path->string()));
  } else if (o_.on_warning) {
    o_.on_warning("speed cache: " + path.status().ToString());
  }
}

// 1. Prompt processing: a fresh prompt each repetition, nothing reused,
// sized so that template + text is prompt_tokens (as llama-bench's ppN);
// 2. generation from a short prompt, EOS ignored, greedy.
Status LlmBench::MeasurePromptAndGenerate(LlmBackend& b) {
  RG_ASSIGN_OR_RETURN(int overhead, TemplateOverhead(b));
  std::vector<double> pp, tg;
  int pp_tokens = 0;
  for (int rep = 0; rep < o_.reps && o_.prompt_tokens > 0; ++rep) {
    RG_ASSIGN_OR_RETURN(std::string text, Filler(b, std::max(1, o_.prompt_tokens - overhead), rep));
    ChatRequest r;
    r.messages = {{Role::kUser, text}};
    r.sampling.max_tokens = 1;
    r.sampling.temperature = 0;
    RG_ASSIGN_OR_RETURN(ChatResponse resp, b.Chat(r));
    pp_tokens = resp.tokens_prompt_evaluated;
    pp.push_back(TokensPerSecond(resp.tokens_prompt_evaluated, resp.time_prompt_ms));
  }
  for (int rep = 0; rep < o_.reps && o_.gen_tokens > 0; ++rep) {
    ChatRequest r;
    r.messages = {{Role::kUser, "Write a long story " + std::to_string(rep)}};
    r.sampling.max_tokens = o_.gen_tokens;
    r.sampling.temperature = 0;
    r.sampling.ignore_eos = true;
    RG_ASSIGN_OR_RETURN(ChatResponse resp, b.Chat(r));
    tg.push_back(TokensPerSecond(resp.tokens_generated, resp.time_generation_ms));
  }
  if (!pp.empty()) {
    report_.prompt = LlmSpeedFigure{pp_tokens, llm::Median(pp), pp};
    Line(fmt::format("prompt     {} tokens: median {:.1f} tok/s (reps:{})", pp_tokens, llm::Median(pp),
                     RepsText(pp)));
  }
  if (!tg.empty()) {
    report_.generate = LlmSpeedFigure{o_.gen_tokens, llm::Median(tg), tg};
    Line(fmt::format("generate   {} tokens: median {:.2f} tok/s (reps:{})", o_.gen_tokens,
                     llm::Median(tg), RepsText(tg)));
    RecordSpeed(b, pp, tg);
  }
  return Status::Ok();
}

// The `batch` requests of repetition `rep`: the same prompt, or with `mixed`
// different prompts sharing a system prompt.
std::vector<ChatRequest> LlmBench::BatchRequests(bool mixed, int rep) const {
  std::vector<ChatRequest> rs(o_.batch);
  for (int i = 0; i < o_.batch; ++i) {
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
    r.sampling.max_tokens = o_.gen_tokens;
    r.sampling.temperature = 0.7f;
    r.sampling.seed = 1 + rep + i;
    r.sampling.ignore_eos = true;
  }
  return rs;
}

// One repetition of the batch comparison: the requests one after another,
// then together.
Status LlmBench::MeasureBatchRep(LlmBackend& b, bool mixed, int rep, std::vector<double>* ratios,
                                 std::vector<double>* cpu_ratios) {
  std::vector<ChatRequest> rs = BatchRequests(mixed, rep);
  auto t0 = std::chrono::steady_clock::now();
  double c0 = ProcessCpuSeconds();
  int seq_tokens = 0;
  for (const auto& r : rs) {
    RG_ASSIGN_OR_RETURN(ChatResponse resp, b.Chat(r));
    seq_tokens += resp.tokens_generated;
  }
  double seq_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  double seq_cpu = ProcessCpuSeconds() - c0;
  if (!mixed) {
    rs.resize(1);
    rs[0].n = o_.batch;
  }
  t0 = std::chrono::steady_clock::now();
  c0 = ProcessCpuSeconds();
  RG_ASSIGN_OR_RETURN(std::vector<ChatResponse> resp, b.ChatBatch(rs));
  double batch_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  double batch_cpu = ProcessCpuSeconds() - c0;
  int batch_tokens = 0;
  for (const auto& one : resp) batch_tokens += one.tokens_generated;
  double ratio = (batch_tokens / batch_s) / (seq_tokens / seq_s);
  double cpu_ratio = (batch_tokens / batch_cpu) / (seq_tokens / seq_cpu);
  ratios->push_back(ratio);
  cpu_ratios->push_back(cpu_ratio);
  Line(fmt::format(
      "{} rep {}: {} x {} tokens: {} requests {:.2f} s ({:.1f} tok/s, {:.2f} cpu-s), "
      "{} {:.2f} s ({:.1f} tok/s, {:.2f} cpu-s): {:.2f}x (cpu {:.2f}x)",
      mixed ? "mixed     " : "batch     ", rep, o_.batch, o_.gen_tokens, o_.batch, seq_s,
      seq_tokens / seq_s, seq_cpu, mixed ? "one ChatBatch" : "n=" + std::to_string(o_.batch),
      batch_s, batch_tokens / batch_s, batch_cpu, ratio, cpu_ratio));
  (mixed ? report_.mixed : report_.batch)
      .push_back({o_.batch, o_.gen_tokens, seq_s, seq_tokens / seq_s, seq_cpu, batch_s,
                  batch_tokens / batch_s, batch_cpu});
  return Status::Ok();
}

// 3. Batched samples: aggregate tokens/s of n = N in one request (one
// llama_decode per step for all N sequences) against N requests, both with
// prefix reuse and EOS ignored (same token counts). Same prompt (n = N in
// one request), then, with `mixed`, N requests with different prompts
// sharing a system prompt (one ChatBatch).
Status LlmBench::MeasureBatches() {
  std::unique_ptr<LlmBackend> batch_backend;
  if (o_.batch > 0) {
    RG_ASSIGN_OR_RETURN(batch_backend, o_.make_backend(/*reuse_prefix=*/true));
  }
  for (bool mixed : {false, true}) {
    if (mixed && !o_.mixed) break;
    std::vector<double> batch_ratios, cpu_ratios;
    for (int rep = 0; rep < o_.reps && o_.batch > 0; ++rep) {
      RG_RETURN_IF_ERROR(MeasureBatchRep(*batch_backend, mixed, rep, &batch_ratios, &cpu_ratios));
    }
    if (!batch_ratios.empty()) {
      Line(fmt::format(
          "{} {}, {} threads: median {:.2f}x aggregate tokens/s (cpu-time ratio {:.2f}x)",
          mixed ? "mixed     " : "batch     ", report_.info.description, report_.info.threads,
          llm::Median(batch_ratios), llm::Median(cpu_ratios)));
    }
  }
  return Status::Ok();
}

// 4. Prefix reuse: two requests sharing a long system prompt.
Status LlmBench::MeasurePrefixReuse() {
  RG_ASSIGN_OR_RETURN(std::unique_ptr<LlmBackend> warm_backend,
                      o_.make_backend(/*reuse_prefix=*/true));
  std::vector<double> ratios, first_ms, second_ms;
  int first_eval = 0, second_eval = 0, prompt_len = 0;
  for (int rep = 0; rep < o_.reps; ++rep) {
    RG_ASSIGN_OR_RETURN(std::string prefix, Filler(*warm_backend, o_.prefix_tokens, 100 + rep));
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
  Line(fmt::format(
      "prefix     {}-token prompt sharing a ~{}-token prefix: first request {:.1f} ms ({} "
      "evaluated), second {:.1f} ms ({} evaluated): median ratio {:.1f}%",
      prompt_len, o_.prefix_tokens, llm::Median(first_ms), first_eval, llm::Median(second_ms),
      second_eval, 100 * llm::Median(ratios)));
  report_.prefix =
      LlmPrefixFigure{prompt_len, o_.prefix_tokens, llm::Median(first_ms), llm::Median(second_ms),
                      first_eval, second_eval,      llm::Median(ratios)};
  return Status::Ok();
}

Result<LlmBenchReport> LlmBench::Run() {
  if (!o_.make_backend) return Status::InvalidArgument("bench-llm: no backend to measure");
  RG_ASSIGN_OR_RETURN(std::unique_ptr<LlmBackend> cold, o_.make_backend(/*reuse_prefix=*/false));
  LlmBackend& b = *cold;
  std::optional<LlamaInfo> info = GetLlamaInfo(b);
  if (!info) return Status::InvalidArgument(b.Name() + ": bench-llm measures the embedded backend");
  report_.model = b.ModelId();
  report_.info = *info;
  Line(fmt::format("model      {} ({}, {:.0f}M parameters)", report_.model, info->description,
                   info->parameters / 1e6));
  Line(fmt::format("threads    {}", info->threads));
  Line(fmt::format("context    {} tokens", info->context_size));
  // Warm-up: page the weights in.
  ChatRequest warm;
  warm.messages = {{Role::kUser, "Hello"}};
  warm.sampling.max_tokens = 4;
  warm.sampling.temperature = 0;
  RG_RETURN_IF_ERROR(b.Chat(warm).status());
  RG_RETURN_IF_ERROR(MeasurePromptAndGenerate(b));
  cold.reset();
  RG_RETURN_IF_ERROR(MeasureBatches());
  if (o_.prefix_tokens > 0) RG_RETURN_IF_ERROR(MeasurePrefixReuse());
  return std::move(report_);
}

}  // namespace

Result<LlmBenchReport> MeasureLlm(const LlmBenchOptions& options) {
  return LlmBench(options).Run();
}

}  // namespace regrapht
