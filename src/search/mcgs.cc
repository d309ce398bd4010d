// ReGraphT's Monte Carlo Graph Search (paper section 3; docs/search.md).
//
// One iteration:
//   1. Select   from the root, follow P-UCB edges  Q(child) + c*sqrt(ln N(node) / N(edge))
//               through already-generated states until an edge whose step
//               has not been generated yet (or a terminal state).
//   2. Expand   a state is expanded on its first visit: one edge per
//               successor of its graph node (all of them at once); the
//               selected edge's step is generated (model + verification).
//   3. Roll out from the new state: epsilon-greedy on Q(s,a) - lambda*N(s,a),
//               generating steps until one fails or the step cap.
//   4. Back up  the rollout's maximum reward along the selection path (and
//               each rollout state's suffix maximum on the rollout).
//
// States and statistics:
//
//   SearchNode  (graph node, code hash): code, reward, visits N, value sum W
//      |- SearchEdge  action = successor graph node, visits N(s,a), child
//      |- SearchEdge  ...
//
// The paper leaves N(parent) undefined on a cyclic graph. Here the search
// runs over *states*, not graph nodes: a state is a graph node plus the code
// reached there, so every state has exactly one visit count of its own. Two
// paths that reach the same technique with identical code share one state
// (a transposition table keyed by graph node and code hash), so their
// statistics are pooled. Cycles of the reasoning graph become deeper states
// (the same technique applied again to different code); a path that would
// revisit a state already on it stops there, and the step cap bounds depth.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "core/json_util.h"
#include "core/rng.h"
#include "search/reasoners.h"
#include "search/search_run.h"

namespace regrapht::search {
namespace {

struct SearchEdge {
  NodeId action = 0;     // successor graph node (the technique to apply)
  EdgeId graph_edge = 0;
  int child = -1;        // search node; -1 until generated
  int visits = 0;
  int failures = 0;      // generated steps that failed; the last one is `child`
};

struct SearchNode {
  int id = 0;
  NodeId graph_node = kInitNode;
  std::string code;
  std::string code_hash;
  int attempt = -1;      // attempt that produced it; -1 for the root
  int depth = 0;
  double reward = 0;     // SearchReward of its code; 0 for the root
  bool failed = false;   // its step failed: terminal
  int visits = 0;
  double value_sum = 0;
  bool expanded = false;
  bool closed = false;   // nothing below it can still be generated
  std::vector<SearchEdge> edges;
  double Q() const { return visits ? value_sum / visits : 0.0; }
};

class Mcgs final : public Reasoner {
 public:
  explicit Mcgs(SearchOptions o) : o_(std::move(o)) {}
  std::string Name() const override { return "regrapht-mcgs"; }

  Result<SearchOutcome> Run(const SearchTask& task, const SearchContext& ctx) override {
    if (!task.graph || !task.examples) return Status::InvalidArgument("regrapht-mcgs needs the reasoning graph");
    SearchRun run(task, ctx, o_, Name());
    run_ = &run;
    graph_ = task.graph;
    rng_.Seed(o_.seed);
    nodes_.clear();
    table_.clear();
    log_ = OrderedJson::array();
    SearchNode root;
    root.code = task.StartCode();
    root.code_hash = "root";
    nodes_.push_back(root);

    std::string stop;
    int idle = 0;
    int iteration = 0;
    while (true) {
      if (run.Exhausted(&stop)) break;
      if (o_.iterations > 0 && iteration >= o_.iterations) {
        stop = "iterations: " + std::to_string(o_.iterations);
        break;
      }
      if (nodes_[0].closed) {
        stop = "search space exhausted (every reachable step generated or terminal)";
        break;
      }
      int before = run.generations();
      RG_RETURN_IF_ERROR(Iterate(++iteration));
      if (run.generations() == before) {
        // Nothing left to generate below the selected states.
        if (++idle >= 64) {
          stop = "search space exhausted (every reachable step generated or terminal)";
          break;
        }
      } else {
        idle = 0;
      }
    }
    return run.Finish(TreeJson(), stop);
  }

 private:
  // ---- 1. Select ------------------------------------------------------------------

  // A failed step is sampled again (a new generation, the model is
  // stochastic) until it has failed 1 + step_retries times; its Q of -1 keeps
  // it behind every edge that worked.
  bool Retryable(const SearchEdge& e) const {
    return e.child >= 0 && nodes_[e.child].failed && e.failures <= o_.step_retries;
  }

  // Returns -1 when every edge leads to a closed, non-retryable state or back
  // onto the current path (nothing new can be generated through this node now).
  int SelectEdge(const SearchNode& n, const std::vector<int>& on_path) {
    // Unvisited edges first (P-UCB is infinite there), the most common
    // transition first (most examples on the graph edge), seeded ties.
    int best = -1;
    double best_score = -std::numeric_limits<double>::infinity();
    double tie = 0;
    double ln_n = std::log(std::max(1, n.visits));
    for (size_t i = 0; i < n.edges.size(); ++i) {
      const SearchEdge& e = n.edges[i];
      if (e.child >= 0 && ((nodes_[e.child].closed && !Retryable(e)) ||
                           std::find(on_path.begin(), on_path.end(), e.child) != on_path.end())) {
        continue;
      }
      double score;
      if (e.visits == 0) {
        score = 1e9 + static_cast<double>(graph_->edge(e.graph_edge).examples.size());
      } else {
        double q = e.child >= 0 ? nodes_[e.child].Q() : 0.0;
        score = q + o_.exploration_c * std::sqrt(ln_n / e.visits);
      }
      double t = rng_.Uniform();
      if (score > best_score || (score == best_score && t > tie)) {
        best = static_cast<int>(i);
        best_score = score;
        tie = t;
      }
    }
    return best;
  }

  // ---- 2. Expand ------------------------------------------------------------------

  void Expand(SearchNode& n) {
    if (n.expanded) return;
    n.expanded = true;
    for (EdgeId eid : graph_->node(n.graph_node).out) {
      SearchEdge e;
      e.action = graph_->edge(eid).to;
      e.graph_edge = eid;
      n.edges.push_back(e);
    }
  }

  // Generates the step of edge `ei` of node `ni`; returns the child state.
  Result<int> Step(int ni, int ei) {
    const SearchNode parent = nodes_[ni];  // copy: nodes_ may grow
    const SearchEdge& e = parent.edges[ei];
    auto examples = run_->EdgeExamples(parent.code, e.graph_edge, o_.examples_per_step);
    // A retry of a failed step shows the model what went wrong last time.
    std::string failure;
    if (e.child >= 0 && nodes_[e.child].failed && nodes_[e.child].attempt >= 0) {
      const Attempt& bad = run_->attempt(nodes_[e.child].attempt);
      failure = std::string(VerdictName(bad.verdict)) + ": " + bad.detail;
    }
    RG_ASSIGN_OR_RETURN(auto messages, run_->StepMessages(parent.code, e.action, examples, failure));
    RG_ASSIGN_OR_RETURN(int a, run_->Generate(messages, parent.attempt, run_->TechniqueId(e.action),
                                              static_cast<int>(e.action)));
    const Attempt& att = run_->attempt(a);
    int child;
    std::string key = std::to_string(e.action) + ":" + att.code_hash;
    auto it = table_.find(key);
    if (o_.share_transpositions && !att.code_hash.empty() && it != table_.end()) {
      child = it->second;  // the same technique and code reached another way
    } else {
      SearchNode c;
      c.id = static_cast<int>(nodes_.size());
      c.graph_node = e.action;
      c.code = att.code;
      c.code_hash = att.code_hash;
      c.attempt = a;
      c.depth = parent.depth + 1;
      c.reward = att.reward;
      c.failed = run_->Failed(a);
      nodes_.push_back(c);
      child = c.id;
      if (!att.code_hash.empty()) table_[key] = child;
    }
    nodes_[ni].edges[ei].child = child;
    if (nodes_[child].failed) ++nodes_[ni].edges[ei].failures;
    return child;
  }

  // ---- 3. Roll out ----------------------------------------------------------------

  // Epsilon-greedy on Q(s,a) - lambda * N(s,a); ties (all of them in a
  // fresh state) go to a seeded random one of the tied edges, not to the
  // first inserted.
  int RolloutEdge(const SearchNode& n) {
    if (rng_.Uniform() < o_.rollout_epsilon) return static_cast<int>(rng_.Below(n.edges.size()));
    std::vector<int> best;
    double best_v = -std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < n.edges.size(); ++i) {
      const SearchEdge& e = n.edges[i];
      double q = e.child >= 0 ? nodes_[e.child].Q() : 0.0;
      double v = q - o_.rollout_lambda * e.visits;
      if (v > best_v + 1e-12) {
        best_v = v;
        best.assign(1, static_cast<int>(i));
      } else if (v >= best_v - 1e-12) {
        best.push_back(static_cast<int>(i));
      }
    }
    return best.size() == 1 ? best[0] : best[rng_.Below(best.size())];
  }

  // One rollout from `start` (a fresh, successful state): steps taken
  // epsilon-greedily until the step cap, a failure, a cycle or the budget.
  // Appends the edges taken to `path` and returns the states reached.
  Result<std::vector<int>> Rollout(int start, std::vector<int> on_path, std::vector<std::pair<int, int>>* path) {
    std::vector<int> reached;
    int r = start;
    while (!run_->Exhausted() && nodes_[r].depth < o_.max_depth) {
      SearchNode& rn = nodes_[r];
      Expand(rn);
      if (rn.edges.empty()) break;
      int ei = RolloutEdge(rn);
      path->push_back({r, ei});
      int next = rn.edges[ei].child;
      if (next < 0) {
        RG_ASSIGN_OR_RETURN(next, Step(r, ei));
      }
      if (std::find(on_path.begin(), on_path.end(), next) != on_path.end() || next == r) break;
      reached.push_back(next);
      on_path.push_back(next);
      r = next;
      if (nodes_[r].failed) break;
    }
    return reached;
  }

  // ---- one iteration --------------------------------------------------------------

  // A state is closed when nothing below it can be generated any more: its
  // step failed, it sits at the step cap, it has no successor, or every
  // edge leads to a closed state. Closed states are never selected again.
  void UpdateClosed(int ni) {
    SearchNode& n = nodes_[ni];
    if (n.closed) return;
    if (n.failed || n.depth >= o_.max_depth || (n.expanded && n.edges.empty())) {
      n.closed = true;
      return;
    }
    if (!n.expanded) return;
    for (const auto& e : n.edges) {
      if (e.child < 0 || !nodes_[e.child].closed || Retryable(e)) return;
    }
    n.closed = true;
  }

  Status Iterate(int iteration) {
    run_->Emit(iteration, "select");
    std::vector<std::pair<int, int>> path;  // (node, edge taken from it); edge -1 at the end
    std::vector<int> on_path = {0};
    int cur = 0;
    int fresh = -1;  // state generated by this iteration's expansion
    while (true) {
      SearchNode& n = nodes_[cur];
      Expand(n);
      UpdateClosed(cur);
      if (n.failed || n.edges.empty() || n.depth >= o_.max_depth) break;
      int ei = SelectEdge(n, on_path);
      if (ei < 0) break;
      path.push_back({cur, ei});
      if (n.edges[ei].child < 0 || Retryable(n.edges[ei])) {
        if (run_->Exhausted()) return Status::Ok();
        RG_ASSIGN_OR_RETURN(fresh, Step(cur, ei));
        cur = fresh;
        break;
      }
      int next = n.edges[ei].child;
      if (std::find(on_path.begin(), on_path.end(), next) != on_path.end()) break;  // cycle
      cur = next;
      on_path.push_back(cur);
    }
    size_t selection_len = path.size();
    // 3. Roll out `rollouts` times from the fresh state (the paper's N).
    std::vector<std::vector<int>> rollouts;
    if (fresh >= 0 && !nodes_[fresh].failed) {
      on_path.push_back(fresh);
      for (int k = 0; k < std::max(1, o_.rollouts) && !run_->Exhausted(); ++k) {
        RG_ASSIGN_OR_RETURN(auto reached, Rollout(fresh, on_path, &path));
        if (!reached.empty()) rollouts.push_back(std::move(reached));
      }
    }
    // 4. Back up: the best reward this iteration reached.
    std::vector<int> tail;  // states after the selection: the fresh one, then every rollout's
    std::vector<double> suffix;  // per tail state: the best reward from it onwards on its rollout
    if (fresh >= 0) {
      tail.push_back(fresh);
      suffix.push_back(nodes_[fresh].reward);
    }
    for (const auto& ro : rollouts) {
      std::vector<double> sfx(ro.size());
      double m = -std::numeric_limits<double>::infinity();
      for (size_t i = ro.size(); i-- > 0;) {
        m = std::max(m, nodes_[ro[i]].reward);
        sfx[i] = m;
      }
      if (fresh >= 0) suffix[0] = std::max(suffix[0], m);
      tail.insert(tail.end(), ro.begin(), ro.end());
      suffix.insert(suffix.end(), sfx.begin(), sfx.end());
    }
    double value;
    if (tail.empty()) {
      value = cur == 0 ? 0.0 : nodes_[cur].reward;  // a terminal or fully explored state
    } else {
      value = -std::numeric_limits<double>::infinity();
      for (int t : tail) value = std::max(value, nodes_[t].reward);
    }
    for (size_t i = 0; i < path.size(); ++i) {
      auto [ni, ei] = path[i];
      if (ei >= 0) ++nodes_[ni].edges[ei].visits;
    }
    for (size_t i = 0; i < selection_len; ++i) {
      SearchNode& n = nodes_[path[i].first];
      ++n.visits;
      n.value_sum += value;
    }
    if (tail.empty() && cur != 0) {
      ++nodes_[cur].visits;
      nodes_[cur].value_sum += value;
    }
    for (size_t i = 0; i < tail.size(); ++i) {
      ++nodes_[tail[i]].visits;
      nodes_[tail[i]].value_sum += suffix[i];
    }
    // Close finished states, deepest first.
    for (auto it = tail.rbegin(); it != tail.rend(); ++it) UpdateClosed(*it);
    for (size_t i = path.size(); i-- > 0;) UpdateClosed(path[i].first);
    OrderedJson entry = {{"iteration", iteration}, {"value", value}};
    OrderedJson p = OrderedJson::array();
    for (size_t i = 0; i < selection_len; ++i) p.push_back(path[i].first);
    entry["selection"] = p;
    OrderedJson t = OrderedJson::array();
    for (int x : tail) t.push_back(x);
    entry["reached"] = t;  // the fresh state, then every rollout's states (they may repeat)
    log_.push_back(entry);
    return Status::Ok();
  }

  std::string TreeJson() const {
    OrderedJson nodes = OrderedJson::array();
    for (const auto& n : nodes_) {
      OrderedJson edges = OrderedJson::array();
      for (const auto& e : n.edges) {
        edges.push_back({{"technique", run_->TechniqueId(e.action)}, {"child", e.child}, {"visits", e.visits},
                         {"failures", e.failures}});
      }
      char q[32];
      std::snprintf(q, sizeof q, "%.6f", n.Q());
      nodes.push_back({{"id", n.id},
                       {"technique", n.id == 0 ? "init" : run_->TechniqueId(n.graph_node)},
                       {"attempt", n.attempt},
                       {"depth", n.depth},
                       {"reward", n.reward},
                       {"failed", n.failed},
                       {"closed", n.closed},
                       {"visits", n.visits},
                       {"q", std::string(q)},
                       {"edges", edges}});
    }
    OrderedJson j = {{"method", "regrapht-mcgs"},
                     {"exploration_c", o_.exploration_c},
                     {"rollout_epsilon", o_.rollout_epsilon},
                     {"rollout_lambda", o_.rollout_lambda},
                     {"rollouts", o_.rollouts},
                     {"max_depth", o_.max_depth},
                     {"nodes", nodes},
                     {"iterations", log_}};
    return j.dump(1);
  }

  SearchOptions o_;
  SearchRun* run_ = nullptr;
  const Graph* graph_ = nullptr;
  Rng rng_;
  std::vector<SearchNode> nodes_;
  std::map<std::string, int> table_;
  OrderedJson log_;
};

}  // namespace

std::unique_ptr<Reasoner> NewMcgs(const SearchOptions& options) { return std::make_unique<Mcgs>(options); }

}  // namespace regrapht::search
