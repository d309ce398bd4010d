// The text of the search's progress lines (optimize prints them; a failed
// step's reason is core/strings.h's FirstLine of its detail, as on bench's),
// and of optimize's status line, which shows the run is alive.
#pragma once

#include <string>

#include "regrapht/llm.h"
#include "regrapht/search.h"

namespace regrapht::search {

// One finished step: generation / budget, iteration, action, verdict, the
// best speedup so far, the reply's tokens and, for a failed step, the first
// line of why (at most 100 characters).
std::string StepLine(const SearchEvent& step, int budget);

// The generation in progress: tokens of the budget, tokens/s and an upper
// bound of the time left (the reply may end before its token budget).
std::string GenerationLine(const GenerationProgress& progress);

// What optimize's status line shows: how long it has run (of its limit),
// what it is doing, the model's tokens while it generates, the candidates
// checked and the best so far.
struct RunStatus {
  double elapsed_s = 0;
  double limit_s = 0;             // the time limit; 0: none
  std::string phase;              // "checking the reference", "generating", "checking", ...
  int generation = 0;             // generating / checking: which generation (1-based)
  int budget = 0;                 // of how many (0: no generation budget)
  bool tokens_known = false;      // `tokens` holds the generation's progress (embedded model)
  GenerationProgress tokens;
  int checked = 0;                // candidates checked so far
  std::string best;               // the best so far ("1.52x", "correct, untimed"); empty: none yet
};

// "progress   0m42s of 1m00s  generating 2/8: 180/512 tokens, 41.3 tokens/s
// | 1 checked | best: none yet" (one line).
std::string StatusLineText(const RunStatus& status);

}  // namespace regrapht::search
