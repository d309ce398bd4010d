#include "search/progress_text.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/progress.h"
#include "core/strings.h"

namespace regrapht::search {

std::string StepLine(const SearchEvent& st, int budget) {
  std::string line = fmt::format("[gen {:3d}/{}] iter {:<3d} {:<30} -> {:<16} best {}", st.generation, budget,
                                 st.iteration, (st.by_rules ? st.action + " (rules)" : st.action).substr(0, 30),
                                 st.verdict,
                                 st.best_speedup > 0 ? fmt::format("{:.2f}x", st.best_speedup) : "-");
  if (st.tokens_generated > 0) line += fmt::format("  {} tokens", st.tokens_generated);
  if (st.reply_cached) line += " (reply from the response cache)";
  if (st.verdict != "correct" && !st.detail.empty()) line += "  (" + FirstLine(st.detail, 100) + ")";
  return line;
}

std::string GenerationLine(const GenerationProgress& g) {
  std::string line = fmt::format("generating {}/{} tokens", g.tokens, g.max_tokens);
  if (g.seconds > 0 && g.tokens > 0) {
    double rate = g.tokens / g.seconds;
    line += fmt::format(", {:.1f} tokens/s, at most {:.0f} s left", rate,
                        std::max(0, g.max_tokens - g.tokens) / rate);
  }
  return line;
}

std::string StatusLineText(const RunStatus& st) {
  std::string line = "progress   " + FormatDuration(st.elapsed_s);
  line += st.limit_s > 0 ? " of " + FormatDuration(st.limit_s) : std::string(" (no time limit)");
  line += "  " + st.phase;
  if (st.generation > 0) {
    line += st.budget > 0 ? fmt::format(" {}/{}", st.generation, st.budget) : fmt::format(" {}", st.generation);
  }
  if (st.tokens_known) {
    line += fmt::format(": {}/{} tokens", st.tokens.tokens, st.tokens.max_tokens);
    if (st.tokens.seconds > 0 && st.tokens.tokens > 0)
      line += fmt::format(", {:.1f} tokens/s", st.tokens.tokens / st.tokens.seconds);
  }
  line += fmt::format(" | {} checked | best: {}", st.checked, st.best.empty() ? "none yet" : st.best);
  return line;
}

}  // namespace regrapht::search
