// Pictures of one search: the tree of attempts as SVG, and a self-contained
// HTML page of a whole `optimize` report (`regrapht tree show`; optimize
// writes the page beside its report JSON).
//
// The input is the report JSON `optimize` writes (docs/search.md): "attempts"
// (id, parent, action, verdict, detail, speedup, reward, reused, code_hash,
// and "code" in reports from this version on), "best_path", the search's
// summary fields, "source" (the sequential code), "best_result" and "config".
#pragma once

#include <string>
#include <vector>

#include "core/json_util.h"
#include "regrapht/status.h"

namespace regrapht::bench {

// One attempt as the pictures need it.
struct TreeAttempt {
  int id = 0;
  int parent = -1;  // -1: the sequential code
  std::string action, verdict, detail, code;
  double speedup = 0;
  bool reused = false;
  bool on_best_path = false;
};

// Reads the attempts of `report` with the search's parser
// (search/attempt_json.h); errors name `source` and the field
// ("attempts[3].parent: ..."). A parent must be -1 or an earlier attempt's
// id, a verdict one of VerdictName's.
Result<std::vector<TreeAttempt>> ReadTreeAttempts(const Json& report, const std::string& source);

// The tree drawn left to right: the sequential code at the root, one box per
// attempt (action, verdict, speedup; coloured by verdict), edges from parent
// to child, the winning path drawn thick. Boxes link to "#attempt-N".
std::string SearchTreeSvg(const std::vector<TreeAttempt>& attempts);

// The same tree as Graphviz DOT (left to right, the same labels, colours and
// thick winning path) for `tree show --format png`, which renders it with
// `dot -Tpng` as `graph show` does (graph/dot.h).
std::string SearchTreeDot(const std::vector<TreeAttempt>& attempts);

// The page: the search's summary, the winning path, the tree, every attempt
// with its verdict, detail, diff against its parent's code (or the
// sequential code) and its code, the best result's environment and the
// configuration. No scripts, nothing fetched.
Result<std::string> SearchReportHtml(const Json& report, const std::string& source);

}  // namespace regrapht::bench
