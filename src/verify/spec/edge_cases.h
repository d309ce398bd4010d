// Inputs that find shortcuts: the edge cases the harness adds to a spec's
// own test cases (docs/trust.md, "Edge cases").
//
// A spec's random cases rarely hit the values where code takes a shortcut
// (`if (alpha == 0) return;` for one value of a scalar) or overflows (an
// int32 accumulator fed values at the top of their range). So every scalar
// and every array argument is also tested at the bounds of its declared
// range and at small integers inside it (0, 1, -1, 2), one argument at a
// time at a small test size, and every problem gets one case with every
// argument at the largest magnitude its range allows, at the largest test
// size. The values stay inside the ranges the spec declares: anything a
// caller may pass. Cases the reference itself cannot answer (it crashes,
// or writes NaN or infinity) are dropped by the verifier, never judged.
#pragma once

#include <vector>

#include "regrapht/problem.h"

namespace regrapht::verify {

// The edge cases of `spec`, at most `max_cases`, most telling first: the
// largest-magnitude case, then each argument at its minimum and maximum,
// then at the small integers strictly inside its range. Each has `edge`
// (the driver's instruction) and `note` (what it tests) set; sizes come
// from the spec's test cases, seeds are derived from theirs.
std::vector<TestCase> EdgeCases(const ProblemSpec& spec, size_t max_cases = 12);

}  // namespace regrapht::verify
