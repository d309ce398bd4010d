// optimize_one: regrapht as a library, in the style of llama.cpp's
// examples/simple. One C++ function in, the best verified CUDA drop-in out.
//
//   optimize_one saxpy.cpp saxpy -m model.gguf            # embedded model
//   optimize_one saxpy.cpp saxpy -e http://host:8000/v1 -n qwen2.5-coder --emulate
//
// -e: an OpenAI-compatible endpoint, -n: its model name; --emulate: no GPU,
// check correctness in the CPU emulator; -o: where the CUDA goes; -b: budget.
// Exit status: 0 verified faster, 3 speed not measured, 4 nothing better.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "regrapht/llm.h"
#include "regrapht/optimize.h"

using namespace regrapht;

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s FILE.cpp FUNCTION (-m MODEL.gguf | -e URL -n NAME) %s\n",
                 argv[0], "[--emulate] [-o OUT.cu] [-b BUDGET]");
    return 2;
  }
  OptimizeRequest request;
  request.source_path = argv[1];
  request.function = argv[2];
  request.search.budget.max_generations = 8;
  std::string model_path, endpoint, model_name;
  for (int i = 3; i < argc; ++i) {
    std::string a = argv[i];
    std::string next = i + 1 < argc ? argv[i + 1] : "";
    if (a == "--emulate") {
      request.verify.run_mode = regrapht::VerifyOptions::RunMode::kEmulate;  // no GPU: correctness only
      continue;
    }
    ++i;
    if (a == "-m")
      model_path = next;
    else if (a == "-e")
      endpoint = next;
    else if (a == "-n")
      model_name = next;
    else if (a == "-o")
      request.output_path = next;
    else if (a == "-b")
      request.search.budget.max_generations = std::atoi(next.c_str());
    else
      return std::fprintf(stderr, "unknown argument: %s\n", a.c_str()), 2;
  }

  // The model: embedded (llama.cpp) or an OpenAI-compatible server.
  Result<std::unique_ptr<LlmBackend>> llm = Status::InvalidArgument("give -m or -e");
  if (!model_path.empty()) {
    LlamaOptions o;
    o.model_path = model_path;
    o.context_size = request.search.context_tokens;
    llm = NewLlamaBackend(o);
    request.search.shape.prefill = true;  // shaped replies (docs/llm.md)
    request.search.shape.grammar = true;
    request.search.sampling.repeat_penalty = 1.1f;  // against loops of repeated lines
  } else if (!endpoint.empty()) {
    OpenAiOptions o;
    o.base_url = endpoint;
    o.model = model_name;
    llm = NewOpenAiBackend(o);
  }
  if (!llm.ok()) return std::fprintf(stderr, "model: %s\n", llm.status().ToString().c_str()), 1;
  request.llm = llm->get();

  request.on_event = [](const OptimizeEvent& e) {
    if (e.kind != OptimizeEvent::Kind::kSearchStep || e.step.verdict.empty()) return;
    std::fprintf(stderr, "step %d: %s -> %s\n", e.step.generation, e.step.action.c_str(),
                 e.step.verdict.c_str());
  };
  Result<OptimizeReport> report = Optimize(request);
  if (!report.ok())
    return std::fprintf(stderr, "error: %s\n", report.status().ToString().c_str()), 1;

  std::printf("verdict  %s\n", std::string(OptimizeVerdictName(report->verdict)).c_str());
  if (report->best()) {
    bool timed = report->final_result().candidate_timing.has_value();
    std::printf("speedup  %.2fx%s\n", report->speedup(), timed ? "" : " (not measured)");
    std::printf("cuda     %s\n", report->output.string().c_str());
  }
  std::printf("report   %s\n", report->report_path.string().c_str());
  switch (report->verdict) {
    case OptimizeVerdict::kFaster:
      return 0;
    case OptimizeVerdict::kUntimed:
    case OptimizeVerdict::kUnverified:
      return 3;
    default:
      return 4;
  }
}
