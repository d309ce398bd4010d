// regrapht: turn sequential C++ into verified CUDA with a small local model.
#include <cstdio>
#include <exception>
#include <map>

#include "cli/command.h"
#include "cli/commands.h"
#include "core/log.h"

namespace regrapht::cli {

int Fail(const Status& status) {
  std::fprintf(stderr, "regrapht: %s\n", status.ToString().c_str());
  return kExitError;
}

namespace {

std::vector<CommandEntry> Commands() {
  return {
      {"optimize", "Turn a sequential C++ function into verified, faster CUDA (the main job)", OptimizeCommand},
      {"verify", "Check and time a CUDA candidate against a problem's sequential reference",
       VerifyCommand},
      {"problem", "Work with problem folders (problem check DIR...)", ProblemCommand},
      {"bench", "Run a method over a benchmark suite into a results database (resumable)", BenchCommand},
      {"simulate", "Compare search methods at equal budgets with a SIMULATED small model (no GPU, no model)",
       SimulateCommand},
      {"report", "Print the paper's tables (pass@k, speedup@k, geomean, fast_p) from a results database",
       ReportCommand},
      {"suite", "Benchmark suites: suite check DIR, suite overlap --benchmark ... --corpus ..., suite calibrate DIR", SuiteCommand},
      {"version", "Print the version and the toolchain regrapht found", VersionCommand},
      {"graph", "Build, inspect and convert reasoning graphs", GraphCommand},
      {"tree", "Draw one search from its optimize report: tree show REPORT.json (svg or html)", TreeCommand},
      {"chat", "Ask the language model one question (embedded GGUF or an OpenAI-compatible server)",
       ChatCommand},
      {"bench-llm", "Measure the embedded model: prompt and generation tokens/s, prefix reuse",
       BenchLlmCommand},
      {"model", "Download (pull) and list GGUF models", ModelCommand},
  };
}

int Main(int argc, char** argv) {
  CLI::App app{"regrapht: sequential C++ to verified CUDA with a small local model (ReGraphT)"};
  app.require_subcommand(1);
  app.set_version_flag("--version", [] {
    std::string v = VersionText(false);
    if (!v.empty() && v.back() == '\n') v.pop_back();  // CLI11 adds one
    return v;
  },
                       "Print the version and the toolchain found, and exit");
  std::string log_level = "warn";
  app.add_option("--log-level", log_level, "debug, info, warn, error or off")
      ->capture_default_str();
  std::map<CLI::App*, std::function<int()>> runners;
  for (const auto& c : Commands()) {
    CLI::App* sub = app.add_subcommand(c.name, c.description);
    runners[sub] = c.factory(sub);
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  }
  SetLogLevel(log_level);
  for (auto& [sub, run] : runners) {
    if (sub->parsed()) return run();
  }
  return kExitUsage;
}

}  // namespace
}  // namespace regrapht::cli

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // progress reaches logs and pipes as it happens
  try {
    return regrapht::cli::Main(argc, argv);
  } catch (const std::exception& e) {
    // Last resort: modules convert third-party exceptions to Status; reaching
    // here is a bug.
    std::fprintf(stderr, "regrapht: internal error: %s\n", e.what());
    return regrapht::cli::kExitError;
  }
}
