// The report's protocol views (docs/bench.md "Budgets, seeds and the
// paper's tables"): what each experiment spent per sample and why searches
// stopped before their budget; the spread of the headline metrics across
// runs that differ only in their seed (bench --seeds); and our rows in the
// layout of the paper's Table 1 and 2 beside its published numbers.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "bench/metrics.h"
#include "regrapht/status.h"

namespace regrapht::bench {

// One experiment's spending (rows sharing suite, method, model, config).
struct BudgetUse {
  std::string suite, method, model, config_hash;
  int budget = 0;  // the config's generation budget; 0 when it has none (reference)
  int samples = 0;
  double generations_per_sample = 0, verifications_per_sample = 0;
  // Why searches stopped other than on their generation budget (the trace's
  // "stop_reason"; rows from before it was stored count as "unknown"):
  // reason -> samples.
  std::map<std::string, int> early_stops;
};
std::vector<BudgetUse> SummarizeBudgetUse(const std::vector<ResultRow>& rows);

// Summary of one metric across seeds.
struct AcrossSeeds {
  double mean = 0, sd = 0, min = 0, max = 0;  // sd: sample standard deviation
  Interval ci_mean;                            // the seeds' bootstrap CIs, bounds averaged
};

// Experiments that differ only in their seed (the config's "seed"; 1 when
// absent), two seeds or more.
struct SeedSpread {
  std::string suite, method, model;
  std::vector<uint64_t> seeds;
  AcrossSeeds pass_at_1, speedup_at_1, geomean;
  int timed_seeds = 0;  // seeds whose runs timed a solved problem (the speed figures' n)
};
std::vector<SeedSpread> SummarizeSeeds(const std::vector<GroupMetrics>& groups);

// Markdown: "### Budget use" and, when any, "### Across seeds".
std::string PrintBudgetAndSeeds(const std::vector<BudgetUse>& use, const std::vector<SeedSpread>& seeds);
OrderedJson BudgetUseJson(const BudgetUse& use);
OrderedJson SeedSpreadJson(const SeedSpread& spread);

// The paper's published numbers (data/paper/*.json), with their source.
struct PaperRow {
  std::string table;     // "1" or "2"
  std::string backbone;  // "DeepSeek-Coder-V2-Lite-Instruct", ...
  std::string method;    // our method name ("rag", "regrapht-mcgs", ...)
  std::string benchmark; // "cudaeval" or "pareval"
  std::string tier;      // "" (all) or easy / medium / hard
  double pass_at_1 = -1;      // percent; -1: not published
  double speedup_at_1 = -1;   // -1: not published
  std::string source;         // where the number was read
};
struct PaperData {
  std::string arxiv, title, protocol_note;
  std::vector<PaperRow> rows;
};
// Reads the JSON file; errors name the file and field.
Result<PaperData> LoadPaperData(const std::string& path);

// Our rows in the layout of the paper's Table 1 (per benchmark: pass@1 and
// speedup@1 by method and model) and Table 2 (CUDAEval by tier), each beside
// the paper's numbers, and whether the row is comparable: the same suite
// kind, a drop-in form, the paper's protocol (config "protocol": "paper",
// or the values it sets), no held-out re-timing, GPU-timed evidence.
std::string PrintPaperTables(const std::vector<GroupMetrics>& groups, const PaperData& paper);

}  // namespace regrapht::bench
