// Held-out final evaluation (docs/bench.md, "Held-out numbers"; beyond the
// paper). A search picks its answer by the very runs it is scored on: the
// best of up to hundreds of candidates by their speedups on the spec's test
// cases and timing input. Reporting that measurement rewards a lucky timing
// (the winner's curse) and inputs the answer was selected on. The final
// numbers therefore come from a separate run of the chosen candidate on
// held-out inputs, timed afresh; the search-time figures are kept apart.
//
// Held-out inputs: every test case and the timing input keep their sizes
// and scalars (a spec's sizes carry its constraints: powers of two, square
// grids, sparse structures) and get new seeds, so every generated array
// differs from what the search saw.
#pragma once

#include <cstdint>
#include <string>

#include "regrapht/problem.h"
#include "regrapht/verify.h"

namespace regrapht {

// The salt of a run's held-out seeds: a pure function of the run's seed, so
// a rerun re-verifies on the same held-out inputs.
uint64_t HeldOutSalt(uint64_t run_seed);

// `problem` with every seed (test cases, timing input) replaced by one
// derived from the old seed and `salt` (never the old seed itself; distinct
// old seeds get distinct new ones but for a 64-bit hash collision).
// Everything else, spec text included, is unchanged: the harness keys its
// reference cache by the run plan, which holds the seeds.
Problem HeldOutProblem(const Problem& problem, uint64_t salt);

// Whether a result that a search selected deserves a held-out run: it ran
// and passed. A candidate that failed, or was built but not run, keeps its
// result (a failure cannot improve, and there is nothing to re-time).
bool NeedsHeldOutRun(const VerifyResult& search_result);

// Verifies `source` on HeldOutProblem(problem, salt) with `verifier` (its
// options: timing, emulation, form). A failing candidate is data in the
// result, as for Verify.
Result<VerifyResult> VerifyHeldOut(Verifier* verifier, const Problem& problem, const std::string& source,
                                   uint64_t salt);

}  // namespace regrapht
