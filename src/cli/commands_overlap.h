// `suite overlap --meaning`: the flags of the check by meaning
// (CheckOverlapByMeaning, regrapht/overlap.h) beside the token check, and
// its printed report (docs/bench.md, "Contamination by meaning").
#pragma once

#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/json_output.h"
#include "regrapht/overlap.h"

namespace regrapht::cli {

struct MeaningArgs {
  bool enabled = false;
  bool behaviour = true;              // false: --no-behaviour, the structure check alone
  std::string explained;              // the explained-pairs file
  double structure_threshold = 0.58;  // docs/bench.md ("Contamination by meaning")
  size_t mappings = 6;
  double run_timeout_s = 10;
  int show = 5;
};

// Registers --meaning, --explained, --structure-threshold, --mappings,
// --run-timeout on `overlap`.
void AddMeaningFlags(CLI::App* overlap, MeaningArgs* args);

// Runs both checks over the items' problem folders and prints every flagged
// pair with its explanation (or UNEXPLAINED), the shown pairs below the
// threshold and a summary line. Returns how many flagged pairs the
// explained-pairs file does not explain; `json` gets the details. A Status
// when a check cannot run (no C++ front end, no sandbox, a reference that
// does not build, a malformed explained-pairs file).
Result<int> RunMeaningCheck(const MeaningArgs& args, const std::vector<OverlapItem>& bench_items,
                            const std::vector<OverlapItem>& corpus_items, OrderedJson* json);

}  // namespace regrapht::cli
