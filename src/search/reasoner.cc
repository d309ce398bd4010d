#include "search/reasoners.h"

namespace regrapht {

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
