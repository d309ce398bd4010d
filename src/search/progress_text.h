// The text of the search's progress lines (optimize prints them; bench's
// progress line uses the same reason text).
#pragma once

#include <string>

#include "regrapht/llm.h"
#include "regrapht/search.h"

namespace regrapht::search {

// One finished step: generation / budget, iteration, action, verdict, the
// best speedup so far, the reply's tokens and, for a failed step, the first
// line of why (at most 100 characters).
std::string StepLine(const SearchEvent& step, int budget);

// The first line of a failure's detail, cut to `max` characters ("..." at
// the end when cut). Empty for an empty detail.
std::string ReasonText(const std::string& detail, size_t max = 100);

// The generation in progress: tokens of the budget, tokens/s and an upper
// bound of the time left (the reply may end before its token budget).
std::string GenerationLine(const GenerationProgress& progress);

}  // namespace regrapht::search
