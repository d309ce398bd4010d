// Measuring the embedded model (`regrapht bench-llm`, docs/llm.md): prompt
// processing and generation speed, batched samples against the same requests
// one after another, and the prefix reuse of two requests sharing a long
// system prompt. The generation speed is recorded for optimize's estimate of
// a search's duration (RecordModelSpeed).
//
//   LlmBenchOptions o;
//   o.make_backend = [&](bool reuse_prefix) { ...NewLlamaBackend(...)... };
//   o.on_line = [](const std::string& line) { std::puts(line.c_str()); };
//   Result<LlmBenchReport> r = MeasureLlm(o);
//
// Thread safety: one measurement at a time per process (the figures are
// wall and CPU times of the whole process).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "regrapht/llm.h"
#include "regrapht/status.h"

namespace regrapht {

struct LlmBenchOptions {
  int prompt_tokens = 512;   // prompt processing: template + text of this many tokens; 0: skip
  int gen_tokens = 128;      // generation (EOS ignored, greedy); 0: skip
  int prefix_tokens = 1500;  // the shared prefix of the prefix-reuse figure; 0: skip
  int reps = 5;              // repetitions; medians are reported
  int batch = 0;             // N samples in one request (n = N) against N requests; 0: skip
  bool mixed = false;        // with batch: also N different prompts in one ChatBatch
  // Makes the embedded backend (NewLlamaBackend) to measure, without prefix
  // reuse for the first figures and with it for the batch and prefix
  // figures. REQUIRED. A backend of another kind fails (InvalidArgument:
  // it cannot count tokens).
  std::function<Result<std::unique_ptr<LlmBackend>>(bool reuse_prefix)> make_backend;
  // Each line of the report as soon as it is measured ("prompt     512
  // tokens: median 812.3 tok/s (reps: ...)"); may be empty.
  std::function<void(const std::string&)> on_line;
  // A problem that does not stop the measurement ("speed cache: ..."); may be empty.
  std::function<void(const std::string&)> on_warning;
};

struct LlmSpeedFigure {
  int tokens = 0;
  double median_tok_s = 0;
  std::vector<double> reps_tok_s;
};

// One repetition of the batch comparison.
struct LlmBatchRep {
  int n = 0, tokens = 0;  // samples, tokens each
  double sequential_s = 0, sequential_tok_s = 0, sequential_cpu_s = 0;
  double batched_s = 0, batched_tok_s = 0, batched_cpu_s = 0;
};

struct LlmPrefixFigure {
  int prompt_tokens = 0, prefix_tokens = 0;
  double first_ms = 0, second_ms = 0;  // prompt time of the first and second request (medians)
  int first_evaluated = 0, second_evaluated = 0;  // prompt tokens each evaluated
  double median_ratio = 0;                        // second / first
};

struct LlmBenchReport {
  std::string model;  // LlmBackend::ModelId()
  LlamaInfo info;     // description, parameters, threads, context
  std::optional<LlmSpeedFigure> prompt, generate;
  std::vector<LlmBatchRep> batch, mixed;  // one per repetition
  std::optional<LlmPrefixFigure> prefix;
};

// Runs the measurements `options` asks for, in order: prompt, generate
// (then the speed is recorded), batch, mixed, prefix. Fails with the first
// error of the backend (a model that does not load, a request that fails).
Result<LlmBenchReport> MeasureLlm(const LlmBenchOptions& options);

}  // namespace regrapht
