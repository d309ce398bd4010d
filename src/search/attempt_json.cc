#include "search/attempt_json.h"

#include <cstdio>
#include <set>

namespace regrapht::search {

OrderedJson AttemptToJson(const Attempt& a, AttemptDetail detail) {
  const std::string verdict(AttemptVerdictName(a));
  OrderedJson j;
  if (detail == AttemptDetail::kBrief) {
    j = {{"id", a.id},
         {"parent", a.parent},
         {"action", a.action},
         {"verdict", verdict},
         {"reward", a.reward}};
  } else {
    j = {{"id", a.id},
         {"parent", a.parent},
         {"action", a.action},
         {"verdict", verdict},
         {"endpoint_error", a.endpoint_error},
         {"detail", a.detail},
         {"speedup", a.speedup},
         {"reward", a.reward},
         {"reused", a.reused},
         {"code_hash", a.code_hash},
         {"tokens_prompt", a.tokens_prompt},
         {"tokens_generated", a.tokens_generated},
         {"reply_cached", a.reply_cached},
         {"code", a.code}};
  }
  // Only for the rules' seed, so that reports without one keep their shape.
  if (a.by_rules) j["by"] = "rules";
  return j;
}

OrderedJson AttemptsToJson(const std::vector<Attempt>& attempts, AttemptDetail detail) {
  OrderedJson arr = OrderedJson::array();
  for (const auto& a : attempts) arr.push_back(AttemptToJson(a, detail));
  return arr;
}

std::string AttemptListJson(const std::string& method, const std::vector<Attempt>& attempts) {
  return OrderedJson(
             {{"method", method}, {"attempts", AttemptsToJson(attempts, AttemptDetail::kBrief)}})
      .dump(1);
}

Result<Attempt> AttemptFromJson(const JsonPath& j) {
  RG_RETURN_IF_ERROR(j.ExpectObject());
  Attempt a;
  RG_ASSIGN_OR_RETURN(int64_t id, j.GetInt("id"));
  RG_ASSIGN_OR_RETURN(int64_t parent, j.GetInt("parent", -1));
  a.id = static_cast<int>(id);
  a.parent = static_cast<int>(parent);
  RG_ASSIGN_OR_RETURN(a.action, j.GetString("action", ""));
  RG_ASSIGN_OR_RETURN(std::string verdict, j.GetString("verdict"));
  a.interrupted = verdict == "interrupted";
  std::optional<Verdict> v = a.interrupted ? Verdict::kCompileError : ParseVerdict(verdict);
  if (!v) return j.FieldError("verdict", "unknown verdict \"" + verdict + "\"");
  a.verdict = *v;
  RG_ASSIGN_OR_RETURN(a.endpoint_error, j.GetBool("endpoint_error", false));
  RG_ASSIGN_OR_RETURN(a.detail, j.GetString("detail", ""));
  RG_ASSIGN_OR_RETURN(a.speedup, j.GetNumber("speedup", 0));
  RG_ASSIGN_OR_RETURN(a.reward, j.GetNumber("reward", -1));
  RG_ASSIGN_OR_RETURN(a.reused, j.GetBool("reused", false));
  RG_ASSIGN_OR_RETURN(a.code_hash, j.GetString("code_hash", ""));
  RG_ASSIGN_OR_RETURN(int64_t tp, j.GetInt("tokens_prompt", 0));
  RG_ASSIGN_OR_RETURN(int64_t tg, j.GetInt("tokens_generated", 0));
  a.tokens_prompt = static_cast<int>(tp);
  a.tokens_generated = static_cast<int>(tg);
  RG_ASSIGN_OR_RETURN(a.reply_cached, j.GetBool("reply_cached", false));
  RG_ASSIGN_OR_RETURN(a.code, j.GetString("code", ""));
  RG_ASSIGN_OR_RETURN(std::string by, j.GetString("by", "model"));
  if (by != "model" && by != "rules")
    return j.FieldError("by", "expected \"rules\" or \"model\", not \"" + by + "\"");
  a.by_rules = by == "rules";
  a.result.verdict = a.verdict;
  a.result.detail = a.detail;
  a.result.speedup = a.speedup;
  return a;
}

Result<std::vector<Attempt>> AttemptsFromJson(const JsonPath& list) {
  RG_RETURN_IF_ERROR(list.ExpectArray());
  std::vector<Attempt> out;
  std::set<int> ids;
  for (size_t i = 0; i < list.json().size(); ++i) {
    JsonPath j = list[i];
    RG_ASSIGN_OR_RETURN(Attempt a, AttemptFromJson(j));
    if (ids.count(a.id)) return j.FieldError("id", "id " + std::to_string(a.id) + " is used twice");
    if (a.parent != -1 && !ids.count(a.parent)) {
      return j.FieldError("parent",
                          std::to_string(a.parent) + " is not -1 or an earlier attempt's id");
    }
    ids.insert(a.id);
    out.push_back(std::move(a));
  }
  return out;
}

OrderedJson TreeNodesJson(const SearchTree& tree, const std::string& label_key,
                          const std::function<std::string(const TreeNode&)>& node_label,
                          const std::function<std::string(const TreeEdge&)>& edge_label) {
  OrderedJson nodes = OrderedJson::array();
  for (const auto& n : tree.nodes()) {
    OrderedJson edges = OrderedJson::array();
    for (const auto& e : n.edges) {
      edges.push_back({{label_key, edge_label(e)},
                       {"child", e.child},
                       {"visits", e.visits},
                       {"failures", e.failures}});
    }
    char q[32];
    std::snprintf(q, sizeof q, "%.6f", n.Q());
    nodes.push_back({{"id", n.id},
                     {label_key, node_label(n)},
                     {"attempt", n.attempt},
                     {"depth", n.depth},
                     {"reward", n.reward},
                     {"failed", n.failed},
                     {"closed", n.closed},
                     {"visits", n.stats.visits},
                     {"q", std::string(q)},
                     {"edges", edges}});
  }
  return nodes;
}

}  // namespace regrapht::search
