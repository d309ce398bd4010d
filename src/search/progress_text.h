// The text of the search's progress lines (optimize prints them; a failed
// step's reason is core/strings.h's FirstLine of its detail, as on bench's).
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

}  // namespace regrapht::search
