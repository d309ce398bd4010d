// regrapht: turn sequential C++ into verified CUDA with a small local model.
#include <cstdio>
#include <exception>
#include <map>

#include "cli/command.h"
#include "cli/commands.h"
#include "cli/json_output.h"
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
      {"completion", "Print a shell completion script (bash, zsh or fish) generated from this command table",
       CompletionCommand},
  };
}

// -v/--verbose and -q/--quiet on every command that runs something (the
// leaves of the table), excluding each other. -v: more detail on stderr (log
// level info; -vv: debug). -q: the command's own meaning where it has one (no
// progress lines), and in every command no warnings from the log (level
// error). An explicit --log-level wins over both.
void AddVerbosityFlags(CLI::App* app, int* verbosity) {
  std::vector<CLI::App*> subs = app->get_subcommands([](CLI::App*) { return true; });
  // A command runs something when it has no subcommands or needs none (bench).
  if (app->get_parent() != nullptr && (subs.empty() || app->get_require_subcommand_min() == 0)) {
    CLI::Option* v = app->add_flag("-v,--verbose", *verbosity,
                                   "more detail on stderr: compile commands, cache hits, per-test-case results "
                                   "(-vv: debug)");
    CLI::Option* q = app->get_option_no_throw("--quiet");
    if (q == nullptr) {
      q = app->add_flag("-q,--quiet")->description(
          "less on stderr: no warnings from the log (errors and the result still print)");
    }
    v->excludes(q);
  }
  for (CLI::App* s : subs) AddVerbosityFlags(s, verbosity);
}

// The subcommand that runs (the deepest parsed one); null if none.
CLI::App* ParsedLeaf(CLI::App* app) {
  for (CLI::App* s : app->get_subcommands()) {
    if (!s->parsed()) continue;
    CLI::App* deeper = ParsedLeaf(s);
    return deeper ? deeper : s;
  }
  return nullptr;
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
  CLI::Option* log_level_opt = app.get_option("--log-level");
  std::map<CLI::App*, std::function<int()>> runners;
  for (const auto& c : Commands()) {
    CLI::App* sub = app.add_subcommand(c.name, c.description);
    runners[sub] = c.factory(sub);
  }
  int verbosity = 0;
  AddVerbosityFlags(&app, &verbosity);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  }
  CLI::App* leaf = ParsedLeaf(&app);
  if (log_level_opt->count() == 0) {
    CLI::Option* quiet = leaf ? leaf->get_option_no_throw("--quiet") : nullptr;
    if (verbosity > 0) log_level = verbosity >= 2 ? "debug" : "info";
    if (quiet && quiet->count() > 0) log_level = "error";
  }
  SetLogLevel(log_level);
  if (leaf) {
    if (CLI::Option* json = leaf->get_option_no_throw("--json"); json && json->count() > 0) BeginJsonOutput();
  }
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
