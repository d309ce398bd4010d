// The one serializer of a search's attempts and trees: the optimize report's
// "attempts" (regrapht::Optimize), the tree JSON of every method (the
// one-shot and sampling baselines list their attempts; MCGS and action-MCTS
// list their tree's states), and the parser `tree show` reads reports with
// (bench/report_tree.cc).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/json_util.h"
#include "regrapht/search.h"
#include "search/tree.h"

namespace regrapht::search {

enum class AttemptDetail {
  kBrief,  // id, parent, action, verdict, reward: a method's tree JSON
  kFull,   // the report's: the brief fields, endpoint_error, detail, speedup, reused,
           // code_hash, tokens_prompt, tokens_generated, code
};

OrderedJson AttemptToJson(const Attempt& a, AttemptDetail detail);
OrderedJson AttemptsToJson(const std::vector<Attempt>& attempts, AttemptDetail detail);

// The tree JSON of a method without a tree: {"method", "attempts" (brief)}.
std::string AttemptListJson(const std::string& method, const std::vector<Attempt>& attempts);

// Reads one attempt written by AttemptToJson (either detail; absent fields
// keep Attempt's defaults; "id" and "verdict" are required). Errors name the
// file and field ("r.json: attempts[3].verdict: ...").
Result<Attempt> AttemptFromJson(const JsonPath& j);
// Reads an array of attempts: ids unique, a parent -1 or an earlier
// attempt's id.
Result<std::vector<Attempt>> AttemptsFromJson(const JsonPath& list);

// The states of a search tree as a JSON array, one object per state: id,
// `label_key` (node_label), attempt, depth, reward, failed, closed, visits,
// q (the mean value, "%.6f"), edges [{`label_key` (edge_label), child,
// visits, failures}].
OrderedJson TreeNodesJson(const SearchTree& tree, const std::string& label_key,
                          const std::function<std::string(const TreeNode&)>& node_label,
                          const std::function<std::string(const TreeEdge&)>& edge_label);

}  // namespace regrapht::search
