// Factories of the CLI's subcommands, one per commands_*.cc.
#pragma once

#include "cli/command.h"

namespace regrapht::cli {

std::function<int()> OptimizeCommand(CLI::App* sub);
std::function<int()> VerifyCommand(CLI::App* sub);
std::function<int()> ProblemCommand(CLI::App* sub);
std::function<int()> BenchCommand(CLI::App* sub);
std::function<int()> ReportCommand(CLI::App* sub);
std::function<int()> SimulateCommand(CLI::App* sub);
std::function<int()> SuiteCommand(CLI::App* sub);
std::function<int()> VersionCommand(CLI::App* sub);
std::function<int()> GraphCommand(CLI::App* sub);  // commands_graph.cc

// commands_llm.cc
std::function<int()> ChatCommand(CLI::App* sub);
std::function<int()> BenchLlmCommand(CLI::App* sub);
std::function<int()> ModelCommand(CLI::App* sub);

}  // namespace regrapht::cli
