// Factories of the CLI's subcommands, one per commands_*.cc.
#pragma once

#include "cli/command.h"

namespace regrapht::cli {

std::function<int()> VersionCommand(CLI::App* sub);

// commands_llm.cc
std::function<int()> ChatCommand(CLI::App* sub);
std::function<int()> BenchLlmCommand(CLI::App* sub);
std::function<int()> ModelCommand(CLI::App* sub);

}  // namespace regrapht::cli
