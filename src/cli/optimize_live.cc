#include "cli/optimize_live.h"

#include <fmt/format.h>
#include <unistd.h>

#include "cli/interrupt.h"

namespace regrapht::cli {

std::unique_ptr<OptimizeProgress> NewOptimizeLive(const SearchFlags& flags, bool quiet,
                                                  bool emulate) {
  OptimizeProgressOptions o;
  const bool tty = ::isatty(STDERR_FILENO) != 0;
  o.out = quiet ? nullptr : stderr;
  o.tty = tty;
  o.interval_s = tty ? 1 : 5;  // a log: a line every 5 s at least
  o.budget = flags.budget;
  o.max_tokens = flags.max_tokens;
  o.max_seconds = flags.max_seconds;
  o.measure = !flags.backend.UseHttp();
  o.shape = flags.Shape();
  o.emulate = emulate;
  o.cancel = InterruptFlag();
  return std::make_unique<OptimizeProgress>(o);
}

void PrintEstimate(OptimizeProgress& live, const SearchFlags& flags, LlmBackend* model,
                   const std::string& model_id) {
  OptimizeEstimate e = live.Estimate(model, model_id);
  live.Print(stdout, e.line);
  if (!e.long_search) return;
  live.Print(
      stderr,
      fmt::format("regrapht: warning: this search may take up to {} on this machine (more than 30 "
                  "minutes): --budget, --max-tokens or --max-seconds bound it{}\n",
                  e.duration,
                  flags.EmbeddedOnCpu()
                      ? fmt::format(" (the embedded model's default is --budget {} "
                                    "--max-tokens {})",
                                    SearchFlags::kCpuBudget, SearchFlags::kCpuMaxTokens)
                      : std::string()));
}

}  // namespace regrapht::cli
