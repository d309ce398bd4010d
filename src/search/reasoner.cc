#include "search/reasoners.h"

#include <cmath>

namespace regrapht {
namespace {

// The library boundary of every method: options a search cannot run with
// (or that would never stop) are refused here, naming the field, whatever
// the caller (CLI, API user, bench) is.
Status CheckSearchOptions(const SearchOptions& o) {
  auto bad = [](const std::string& field, const std::string& why) {
    return Status::InvalidArgument("SearchOptions." + field + ": " + why);
  };
  const Budget& b = o.budget;
  if (b.max_generations < 0) return bad("budget.max_generations", "negative (" + std::to_string(b.max_generations) + ")");
  if (b.max_verifications < 0) return bad("budget.max_verifications", "negative");
  if (!std::isfinite(b.max_wall_seconds) || b.max_wall_seconds < 0)
    return bad("budget.max_wall_seconds", "not a finite number of seconds >= 0");
  if (b.max_generations == 0 && b.max_verifications == 0 && b.max_wall_seconds == 0 && o.iterations <= 0)
    return bad("budget", "no limit at all (generations, verifications, seconds and iterations all 0): the "
                         "search would never stop");
  if (o.iterations < 0) return bad("iterations", "negative");
  if (o.max_depth < 1) return bad("max_depth", "below 1");
  if (o.rollouts < 1) return bad("rollouts", "below 1");
  if (o.step_retries < 0) return bad("step_retries", "negative");
  if (o.examples_per_step < 0) return bad("examples_per_step", "negative");
  if (o.max_in_flight < 1) return bad("max_in_flight", "below 1");
  if (o.pipeline < 0) return bad("pipeline", "negative");
  if (o.context_tokens < 1) return bad("context_tokens", "below 1");
  for (auto [name, v] : {std::pair{"exploration_c", o.exploration_c}, {"rollout_lambda", o.rollout_lambda}}) {
    if (!std::isfinite(v) || v < 0) return bad(name, "not a finite number >= 0");
  }
  if (!(o.rollout_epsilon >= 0 && o.rollout_epsilon <= 1)) return bad("rollout_epsilon", "not in [0, 1]");
  const SamplingParams& s = o.sampling;
  if (!std::isfinite(s.temperature) || s.temperature < 0) return bad("sampling.temperature", "not a finite number >= 0");
  if (!(s.top_p >= 0 && s.top_p <= 1)) return bad("sampling.top_p", "not in [0, 1]");
  if (s.max_tokens < 1) return bad("sampling.max_tokens", "below 1");
  if (!std::isfinite(s.repeat_penalty) || s.repeat_penalty <= 0) return bad("sampling.repeat_penalty", "not above 0");
  if (!std::isfinite(s.dry_multiplier) || s.dry_multiplier < 0) return bad("sampling.dry_multiplier", "negative");
  return Status::Ok();
}

}  // namespace

void ApplyPaperProtocol(SearchOptions* o) {
  o->protocol = "paper";
  o->rollouts = 10;
  o->q = SearchOptions::QRule::kMax;
  o->close_failed_edges = false;
  o->budget.max_generations = 200;
}

std::vector<std::string> ReasonerNames() {
  return {"standard", "cot", "rag", "regrapht", "best-of-n", "rethink-mcts", "mcts-rag", "regrapht-mcgs", "rules"};
}

bool NeedsGraph(const std::string& m) {
  return m == "rag" || m == "regrapht" || m == "mcts-rag" || m == "regrapht-mcgs";
}

Result<std::unique_ptr<Reasoner>> NewReasoner(const std::string& m, const SearchOptions& o) {
  using namespace search;
  RG_RETURN_IF_ERROR(CheckSearchOptions(o));
  if (m == "standard") return NewStandard(o);
  if (m == "cot") return NewCot(o);
  if (m == "rag") return NewRag(o);
  if (m == "best-of-n") return NewBestOfN(o);
  if (m == "regrapht") return NewGraphWalk(o);
  if (m == "rethink-mcts") return NewRethinkMcts(o);
  if (m == "mcts-rag") return NewMctsRag(o);
  if (m == "regrapht-mcgs") return NewMcgs(o);
  if (m == "rules") return NewRules(o);
  std::string names;
  for (const auto& n : ReasonerNames()) names += (names.empty() ? "" : ", ") + n;
  return Status::InvalidArgument("unknown method \"" + m + "\" (" + names + ")");
}

}  // namespace regrapht
