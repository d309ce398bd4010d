// The CLI is one table of subcommands (ninja's ChooseTool). Each module's
// commands live in their own commands_*.cc and are listed in main.cc.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdio>
#include <functional>
#include <string>

#include "regrapht/status.h"

namespace regrapht::cli {

// Exit statuses shared by every command (documented in README.md).
inline constexpr int kExitOk = 0;
inline constexpr int kExitError = 1;          // the tool failed (bad input, missing file, ...)
inline constexpr int kExitUsage = 2;          // bad command line
inline constexpr int kExitUnverified = 3;     // ran, but no GPU: results are compiled-only
inline constexpr int kExitCandidateFailed = 4;  // the candidate was checked and is not correct
// optimize, bench: the model endpoint kept failing (more than
// --max-endpoint-failures requests in a row, or every request), so the run
// stopped early; what was found is written (report, best file, finished rows).
inline constexpr int kExitEndpointFailed = 5;
// optimize, bench: stopped by SIGINT/SIGTERM (after writing what was found):
// 128 + the signal, 130 or 143 (cli/interrupt.h).

// Adds the subcommand's options to `sub` and returns the function that runs
// it once the command line is parsed. Options live in state captured by the
// returned function.
using CommandFactory = std::function<std::function<int()>(CLI::App* sub)>;

struct CommandEntry {
  const char* name;
  const char* description;
  CommandFactory factory;
};

// Prints "regrapht: <status>" to stderr and returns kExitError.
int Fail(const Status& status);

// The command line this process was started with, shell-quoted, for reports
// ("regrapht optimize saxpy.cpp --function saxpy").
const std::string& InvocationCommandLine();

// An old spelling kept for one release: hidden from --help, it sets the same
// value and warns on stderr that `new_name` replaces it.
inline void AddOldSpelling(CLI::App* sub, const std::string& old_name, const std::string& new_name,
                           std::string* target) {
  sub->add_option(old_name, *target)->group("")->each([old_name, new_name](const std::string&) {
    std::fprintf(stderr, "regrapht: warning: %s is deprecated; use %s\n", old_name.c_str(), new_name.c_str());
  });
}
inline void AddOldSpelling(CLI::App* sub, const std::string& old_name, const std::string& new_name, bool* target) {
  sub->add_flag_callback(old_name, [old_name, new_name, target] {
       *target = true;
       std::fprintf(stderr, "regrapht: warning: %s is deprecated; use %s\n", old_name.c_str(), new_name.c_str());
     })->group("");
}

// A setting as two flags, `on` and `off`, each with its own help, that
// exclude each other: one negatable flag would show "{false}" in --help beside
// a setting that is on by default. Sets *target; leaves it alone if neither is
// given.
inline void AddOnOffFlags(CLI::App* sub, const std::string& on, const std::string& on_help, const std::string& off,
                          const std::string& off_help, bool* target) {
  CLI::Option* yes = sub->add_flag_callback(on, [target] { *target = true; }, on_help);
  CLI::Option* no = sub->add_flag_callback(off, [target] { *target = false; }, off_help);
  yes->excludes(no);
}

}  // namespace regrapht::cli
