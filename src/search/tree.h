// The tree-search core shared by MCGS (mcgs.cc) and the action-MCTS
// baselines (action_mcts.cc), split as KataGo and lc0 split theirs: node,
// edge and statistics; selection rules; backup; a transposition table.
// Nothing here asks a model: tests build trees by hand (tree_test.cc).
//
//   TreeNode   one search state: the attempt that produced it, its code and
//     |        reward, NodeStats (visits N, value sum W, max value), flags
//     |- TreeEdge  one action: the method's action id, prior, visits N(s,a),
//     |            child state (-1 until generated), failed generations
//     |- TreeEdge  ...
//
// SearchTree owns the states (index = id; 0 is the root). Children are ids,
// not pointers: Add() may move every node, so hold ids across it.
#pragma once

#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/rng.h"
#include "regrapht/search.h"

namespace regrapht::search {

struct NodeStats {
  int visits = 0;
  double value_sum = 0;
  // The largest value backed up through the state (the paper's max backup
  // keeps the best reward reached below a state); -inf before any visit.
  double value_max = -std::numeric_limits<double>::infinity();

  // The mean of the backed-up values; 0 before any visit.
  double Q() const { return visits ? value_sum / visits : 0.0; }
  // Q() or, with QRule::kMax, value_max; 0 before any visit.
  double Value(SearchOptions::QRule rule) const {
    if (!visits) return 0.0;
    return rule == SearchOptions::QRule::kMax ? value_max : Q();
  }
  // One visit backing up `value`.
  void Add(double value);
};

struct TreeEdge {
  int action =
      0;  // the method's action: MCGS a graph edge id, action-MCTS an index into its actions
  double prior = 0;  // order of unvisited edges, higher first (MCGS: examples on the graph edge)
  int child = -1;    // state; -1 until the step was generated
  int visits = 0;    // N(s,a)
  int failures = 0;  // generated steps that failed; the last one is `child`
  // Breaks ties of selection (SelectPucb): a seeded hash of what the edge
  // is (its technique) and where it starts (the state's technique and
  // code), so that ties never depend on the order edges were stored in.
  uint64_t tie = 0;
};

struct TreeNode {
  int id = 0;
  int state = 0;  // the method's label of the state: MCGS the graph node
  std::string code;
  int attempt = -1;  // attempt that produced it; -1 for the root
  int depth = 0;
  double reward = 0;    // SearchReward of its code; 0 for the root
  bool failed = false;  // its step failed: terminal
  bool expanded = false;
  bool closed = false;  // nothing below it can still be generated (MCGS)
  NodeStats stats;
  std::vector<TreeEdge> edges;

  double Q() const { return stats.Q(); }
};

// A step of a path: the state and the index of the edge taken from it.
struct PathStep {
  int node = 0;
  int edge = 0;
};

class SearchTree {
 public:
  // Starts over: one root (id 0) with `root_code`; the table is emptied.
  void Reset(std::string root_code);
  // Appends `node` with the next id; returns the id.
  int Add(TreeNode node);

  TreeNode& node(int id) { return nodes_[static_cast<size_t>(id)]; }
  const TreeNode& node(int id) const { return nodes_[static_cast<size_t>(id)]; }
  const std::vector<TreeNode>& nodes() const { return nodes_; }
  size_t size() const { return nodes_.size(); }

  // Q of the edge's child (by q_rule()); 0 before the child was generated.
  double EdgeQ(const TreeEdge& e) const {
    return e.child >= 0 ? node(e.child).stats.Value(q_rule_) : 0.0;
  }
  // The Q that selection and rollouts rank by (mean by default).
  SearchOptions::QRule q_rule() const { return q_rule_; }
  void set_q_rule(SearchOptions::QRule rule) { q_rule_ = rule; }

  // Transposition table: two paths that apply the same action and reach the
  // same code share one state. The key is "<action>:<code hash>".
  static std::string Key(int action, std::string_view code_hash);
  std::optional<int> Find(const std::string& key) const;
  void Remember(const std::string& key, int id) { table_[key] = id; }

 private:
  std::vector<TreeNode> nodes_;
  std::map<std::string, int> table_;
  SearchOptions::QRule q_rule_ = SearchOptions::QRule::kMean;
};

// ---- Selection rules ----------------------------------------------------------------

// The UCB score of an edge: Q(child) + c * sqrt(ln N(node) / N(edge)) once
// visited, 1e9 + prior before (unvisited edges first, higher prior first).
double UcbScore(const SearchTree& tree, const TreeNode& n, const TreeEdge& e, double c);

// P-UCB as MCGS uses it (docs/search.md, step 1): the edge with the highest
// UcbScore among those `skip` does not reject; an equal score goes to the
// larger TreeEdge::tie (seeded ties that do not depend on edge order), then
// the earlier edge. -1 when every edge is skipped.
int SelectPucb(const SearchTree& tree, const TreeNode& n, double c,
               const std::function<bool(const TreeEdge&)>& skip);

// UCT as the action-MCTS baselines use it: the highest UcbScore among the
// edges `skip` does not reject, the first edge on ties (their priors put
// unvisited edges in insertion order). -1 when no edge is left.
int SelectUct(const SearchTree& tree, const TreeNode& n, double c,
              const std::function<bool(const TreeEdge&)>& skip = nullptr);

// MCGS's rollout policy (docs/search.md, step 3): with probability
// `epsilon` a uniformly random edge, else argmax Q(s,a) - lambda * N(s,a),
// ties (within 1e-12) to a seeded random one of the tied edges.
// REQUIRES: !n.edges.empty().
int RolloutEdge(const SearchTree& tree, const TreeNode& n, double epsilon, double lambda, Rng& rng);

// ---- Backup ---------------------------------------------------------------------------

// Mean backup (UCT): every state on `path` gets one visit of `value` and
// every edge taken one visit.
void BackupMean(SearchTree& tree, const std::vector<PathStep>& path, double value);

// The max backup along a rollout (docs/search.md, step 4): per state, the
// maximum reward from it to the rollout's end. Empty for an empty rollout.
std::vector<double> SuffixMax(const SearchTree& tree, const std::vector<int>& rollout);

}  // namespace regrapht::search
