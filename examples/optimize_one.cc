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
#include <cstring>
#include <string>

#include "regrapht/llm.h"
#include "regrapht/optimize.h"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s FILE.cpp FUNCTION (-m MODEL.gguf | -e URL -n NAME) [--emulate] [-o OUT.cu] [-b N]\n",
                 argv[0]);
    return 2;
  }
  regrapht::OptimizeRequest request;
  request.source_path = argv[1];
  request.function = argv[2];
  request.search.budget.max_generations = 8;
  std::string model_path, endpoint, model_name;
  for (int i = 3; i < argc; ++i) {
    std::string a = argv[i];
    const char* next = i + 1 < argc ? argv[i + 1] : "";
    if (a == "-m") model_path = next, ++i;
    else if (a == "-e") endpoint = next, ++i;
    else if (a == "-n") model_name = next, ++i;
    else if (a == "-o") request.output_path = next, ++i;
    else if (a == "-b") request.search.budget.max_generations = std::atoi(next), ++i;
    else if (a == "--emulate") request.verify.emulate = true;
    else return std::fprintf(stderr, "unknown argument: %s\n", a.c_str()), 2;
  }

  // The model: embedded (llama.cpp) or an OpenAI-compatible server.
  regrapht::Result<std::unique_ptr<regrapht::LlmBackend>> llm = regrapht::Status::InvalidArgument("give -m or -e");
  if (!model_path.empty()) {
    regrapht::LlamaOptions o;
    o.model_path = model_path;
    o.context_size = request.search.context_tokens;
    llm = regrapht::NewLlamaBackend(o);
    request.search.shape.prefill = request.search.shape.grammar = true;  // shaped replies (docs/llm.md)
  } else if (!endpoint.empty()) {
    regrapht::OpenAiOptions o;
    o.base_url = endpoint;
    o.model = model_name;
    llm = regrapht::NewOpenAiBackend(o);
  }
  if (!llm.ok()) return std::fprintf(stderr, "model: %s\n", llm.status().ToString().c_str()), 1;
  request.llm = llm->get();

  request.on_event = [](const regrapht::OptimizeEvent& e) {
    if (e.kind == regrapht::OptimizeEvent::Kind::kSearchStep && !e.step.verdict.empty()) {
      std::fprintf(stderr, "step %d: %s -> %s\n", e.step.generation, e.step.action.c_str(), e.step.verdict.c_str());
    }
  };
  auto report = regrapht::Optimize(request);
  if (!report.ok()) return std::fprintf(stderr, "error: %s\n", report.status().ToString().c_str()), 1;

  std::printf("verdict  %s\n", std::string(regrapht::OptimizeVerdictName(report->verdict)).c_str());
  if (report->best()) {
    std::printf("speedup  %.2fx%s\n", report->speedup(),
                report->final_result().candidate_timing ? "" : " (not timed: no GPU)");
    std::printf("cuda     %s\n", report->output.string().c_str());
  }
  std::printf("report   %s\n", report->report_path.string().c_str());
  switch (report->verdict) {
    case regrapht::OptimizeVerdict::kFaster: return 0;
    case regrapht::OptimizeVerdict::kUntimed:
    case regrapht::OptimizeVerdict::kUnverified: return 3;  // correct or built, speed unknown
    default: return 4;
  }
}
