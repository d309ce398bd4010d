// optimize's signs of life as its flags ask for them: the library's
// OptimizeProgress (regrapht/optimize_progress.h) with its status line on
// stderr (redrawn on a terminal, a plain line every 5 s in a log), and the
// estimate printed before the search with a warning, naming the flags that
// bound the search, when it would take more than 30 minutes.
#pragma once

#include <memory>
#include <string>

#include "cli/search_flags.h"
#include "regrapht/llm.h"
#include "regrapht/optimize_progress.h"

namespace regrapht::cli {

// The progress of searches of `flags`; `quiet`: no status line; `emulate`:
// checks run in the emulator (the speed cache keeps check times per mode).
// Ctrl-C ends its measurement of the model's speed.
std::unique_ptr<OptimizeProgress> NewOptimizeLive(const SearchFlags& flags, bool quiet,
                                                  bool emulate);

// Before the search: prints the estimate of its duration (stdout) and, over
// 30 minutes, a warning (stderr) through `live`.
void PrintEstimate(OptimizeProgress& live, const SearchFlags& flags, LlmBackend* model,
                   const std::string& model_id);

}  // namespace regrapht::cli
