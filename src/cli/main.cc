// regrapht: turn sequential C++ into verified CUDA with a small local model.
#include <cctype>
#include <cstdio>
#include <exception>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "cli/command.h"
#include "cli/commands.h"
#include "cli/json_output.h"
#include "regrapht/log.h"

namespace regrapht::cli {

int Fail(const Status& status) {
  std::fprintf(stderr, "regrapht: %s\n", status.ToString().c_str());
  return kExitError;
}

namespace {
std::string g_command_line;

// `arg` as sh reads it back: as it is when made of safe characters only,
// else single-quoted.
std::string QuoteArg(const std::string& arg) {
  bool safe = !arg.empty();
  for (char c : arg) {
    if (!std::isalnum(static_cast<unsigned char>(c)) &&
        std::string_view("@%_+=:,./-").find(c) == std::string_view::npos) {
      safe = false;
    }
  }
  if (safe) return arg;
  std::string out = "'";
  for (char c : arg) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}
}  // namespace

const std::string& InvocationCommandLine() { return g_command_line; }

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

// "regrapht optimize" for a subcommand, "regrapht" for the app.
std::string CommandPath(const CLI::App* app) {
  std::string path;
  for (; app != nullptr; app = app->get_parent()) path = app->get_name() + (path.empty() ? "" : " " + path);
  return path.empty() ? "regrapht" : path;
}

CLI::App* FindSubcommand(CLI::App* app, const std::string& name) {
  for (CLI::App* s : app->get_subcommands([](CLI::App*) { return true; })) {
    if (s->get_name() == name) return s;
  }
  return nullptr;
}

// The word of a command line CLI11 refused, found by walking it as CLI11
// would: an option the command does not have, or a command that does not
// exist. Empty when the command line holds neither (a value was wrong, a
// required argument missing: CLI11's own message says which).
std::string BadWord(CLI::App* app, int argc, char** argv) {
  CLI::App* cur = app;
  for (int i = 1; i < argc; ++i) {
    std::string tok = argv[i];
    if (tok == "--") break;
    if (tok.size() > 1 && tok[0] == '-' && !(tok.size() > 1 && (std::isdigit(tok[1]) || tok[1] == '.'))) {
      std::string name = tok.substr(0, tok.find('='));
      if (name.size() > 2 && name[1] != '-') name = name.substr(0, 2);  // -vv, -ofile
      const CLI::Option* opt = cur->get_option_no_throw(name);
      if (opt == nullptr && name != "-h" && name != "--help") {
        for (CLI::App* up = cur->get_parent(); up != nullptr; up = up->get_parent()) {
          if (up->get_option_no_throw(name) != nullptr) {  // --log-level after the command
            return CommandPath(cur) + ": '" + name + "' is an option of " + CommandPath(up) + ": put it before '" +
                   cur->get_name() + "'";
          }
        }
        return CommandPath(cur) + ": unknown option '" + name + "' (see " + CommandPath(cur) + " --help)";
      }
      if (opt != nullptr && opt->get_items_expected_max() > 0 && tok.find('=') == std::string::npos &&
          tok.size() == name.size()) {
        ++i;  // its value
      }
      continue;
    }
    if (CLI::App* sub = FindSubcommand(cur, tok)) {
      cur = sub;
      continue;
    }
    if (cur->get_require_subcommand_min() > 0) {
      std::vector<std::string> names;
      for (CLI::App* s : cur->get_subcommands([](CLI::App*) { return true; })) names.push_back(s->get_name());
      std::string list;
      for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
      return CommandPath(cur) + ": unknown command '" + tok + "' (the commands: " + list + "; see " +
             CommandPath(cur) + " --help)";
    }
  }
  return "";
}

int Main(int argc, char** argv) {
  for (int i = 0; i < argc; ++i) {
    if (i > 0) g_command_line += ' ';
    g_command_line += QuoteArg(i == 0 ? std::string("regrapht") : std::string(argv[i]));
  }
  CLI::App app{"regrapht: sequential C++ to verified CUDA with a small local model (ReGraphT)", "regrapht"};
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
  if (argc == 1) {  // bare: the command list
    std::fputs(app.help().c_str(), stderr);
    return kExitUsage;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() != 0) {
      // Every usage error names the word at fault where there is one.
      if (std::string bad = BadWord(&app, argc, argv); !bad.empty()) {
        std::fprintf(stderr, "%s\n", bad.c_str());
        return kExitUsage;
      }
    }
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
