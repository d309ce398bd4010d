// Coverage of a report: which of a suite's problems x methods x samples are
// present in the results and which are missing.
//
// The expected set of an experiment (suite, method, model, config) is, first
// match wins:
//   1. the suite folder given to `report --suite DIR`: its problems, for the
//      experiments of that suite (either form: "<name>" and "<name>/kernel");
//      samples per problem from the plan, else the most any problem has;
//   2. the plan the runs recorded (every shard records the whole suite's
//      problems and its --samples; merged databases carry the union);
//   3. unknown: the report says what is present and asks for --suite.
// An experiment that is planned but has no row yet becomes a group of its own
// (GroupMetrics::has_rows() false), so a method no shard has finished is
// still named as missing.
#pragma once

#include <string>
#include <vector>

#include "bench/metrics.h"
#include "bench/suite.h"
#include "store/results_store.h"

namespace regrapht::bench {

// Sets `coverage` on every group of `groups` (the metrics of `rows`) and
// appends the planned experiments without rows. `suite` may be null.
void AddCoverage(const std::vector<ResultRow>& rows, const std::vector<PlanEntry>& plan, const Suite* suite,
                 std::vector<GroupMetrics>* groups);

// "p #0-2, q #1" (at most `max_problems` problems, then "and N more").
std::string FormatMissing(const std::vector<MissingSample>& missing, size_t max_problems = 20);

}  // namespace regrapht::bench
