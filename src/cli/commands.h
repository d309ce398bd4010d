// Factories of the CLI's subcommands, one per commands_*.cc.
#pragma once

#include "cli/command.h"
#include "core/fs.h"

namespace regrapht::cli {

std::function<int()> OptimizeCommand(CLI::App* sub);
std::function<int()> VerifyCommand(CLI::App* sub);
std::function<int()> ProblemCommand(CLI::App* sub);
std::function<int()> BenchCommand(CLI::App* sub);
std::function<int()> ReportCommand(CLI::App* sub);
std::function<int()> SimulateCommand(CLI::App* sub);
std::function<int()> SuiteCommand(CLI::App* sub);
std::function<int()> VersionCommand(CLI::App* sub);
// The version and the toolchain found (nvcc, CUDA, host compiler, sandbox),
// as text lines or JSON: `version` and `regrapht --version`.
std::string VersionText(bool json);
std::function<int()> GraphCommand(CLI::App* sub);  // commands_graph.cc
std::function<int()> RetrievalEvalCommand(CLI::App* sub);  // commands_retrieval.cc: graph retrieval-eval

// commands_tree.cc: `tree show`, and the page optimize writes beside its report.
std::function<int()> TreeCommand(CLI::App* sub);
// The search in the optimize report at `report_path` drawn as "svg" (the
// tree) or "html" (the whole page); errors name the file and field.
Result<std::string> RenderSearchReport(const fs::path& report_path, const std::string& format);

// commands_llm.cc
std::function<int()> ChatCommand(CLI::App* sub);
std::function<int()> BenchLlmCommand(CLI::App* sub);
std::function<int()> ModelCommand(CLI::App* sub);

// commands_completion.cc: the shell completion script, generated from the
// app that `sub` belongs to.
std::function<int()> CompletionCommand(CLI::App* sub);

}  // namespace regrapht::cli
