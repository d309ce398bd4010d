// ReGraphT's Monte Carlo Graph Search (paper section 3; docs/search.md).
//
// The iteration's steps (1. Select, 2. Expand, 3. Rollout, 4. Backup) are
// the functions of mcgs.h over the shared tree core (tree.h); this file
// holds them and the Reasoner that runs them with a model.
//
// The paper leaves N(parent) undefined on a cyclic graph. Here the search
// runs over *states*, not graph nodes: a state is a graph node plus the code
// reached there, so every state has exactly one visit count of its own. Two
// paths that reach the same technique with identical code share one state
// (the tree's transposition table, keyed by graph node and code hash), so
// their statistics are pooled. Cycles of the reasoning graph become deeper
// states (the same technique applied again to different code); a path that
// would revisit a state already on it stops there, and the step cap bounds
// depth.
#include "search/mcgs.h"

#include <algorithm>
#include <limits>

#include "core/hash.h"
#include "search/attempt_json.h"
#include "search/reasoners.h"
#include "search/search_run.h"
#include "search/stop.h"

namespace regrapht::search {
namespace mcgs {
namespace {

bool Contains(const std::vector<int>& v, int x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

}  // namespace

// ---- 1. Select ------------------------------------------------------------------------

Iteration Select(SearchTree& tree, const Graph& graph, const SearchOptions& o) {
  Iteration it;
  it.on_path = {0};
  // Unvisited edges first (P-UCB is infinite there), the most common
  // transition first (its prior), seeded ties (TieHash). Closed states (unless a
  // retry is due) and states on the path are not selectable.
  auto skip = [&](const TreeEdge& e) {
    return e.child >= 0 && ((tree.node(e.child).closed && !Retryable(tree, e, o)) ||
                            Contains(it.on_path, e.child));
  };
  int cur = 0;
  while (true) {
    Expand(tree, cur, graph, o.seed);
    UpdateClosed(tree, cur, o);
    const TreeNode& n = tree.node(cur);
    if (n.failed || n.edges.empty() || n.depth >= o.max_depth) break;
    int ei = SelectPucb(tree, n, o.exploration_c, skip);
    if (ei < 0) break;
    it.path.push_back({cur, ei});
    const TreeEdge& e = n.edges[static_cast<size_t>(ei)];
    if (e.child < 0 || Retryable(tree, e, o)) {
      it.pending = true;
      break;
    }
    if (Contains(it.on_path, e.child)) break;  // cycle
    cur = e.child;
    it.on_path.push_back(cur);
  }
  it.cur = cur;
  it.selection_len = it.path.size();
  return it;
}

// ---- 2. Expand ------------------------------------------------------------------------

const std::string& TechniqueKey(const Graph& graph, NodeId node) {
  const Node& n = graph.node(node);
  return n.technique.empty() ? n.name : n.technique;
}

uint64_t TieHash(uint64_t seed, const Graph& graph, NodeId technique, const TreeNode& state) {
  std::string key = TechniqueKey(graph, technique);
  key += '\n';
  key += TechniqueKey(graph, static_cast<NodeId>(state.state));
  key += '\n';
  key += state.code;
  return Hash64(key, seed);
}

void Expand(SearchTree& tree, int node, const Graph& graph, uint64_t seed) {
  TreeNode& n = tree.node(node);
  if (n.expanded) return;
  n.expanded = true;
  std::vector<EdgeId> out = graph.node(static_cast<NodeId>(n.state)).out;
  std::sort(out.begin(), out.end(), [&](EdgeId x, EdgeId y) {
    return TechniqueKey(graph, graph.edge(x).to) < TechniqueKey(graph, graph.edge(y).to);
  });
  for (EdgeId eid : out) {
    TreeEdge e;
    e.action = static_cast<int>(eid);
    e.prior = static_cast<double>(graph.edge(eid).examples.size());
    e.tie = TieHash(seed, graph, graph.edge(eid).to, n);
    n.edges.push_back(e);
  }
}

bool Retryable(const SearchTree& tree, const TreeEdge& e, const SearchOptions& o) {
  if (e.child < 0 || !tree.node(e.child).failed) return false;
  return !o.close_failed_edges || e.failures <= o.step_retries;
}

void UpdateClosed(SearchTree& tree, int node, const SearchOptions& o) {
  TreeNode& n = tree.node(node);
  if (n.closed) return;
  if (n.failed || n.depth >= o.max_depth || (n.expanded && n.edges.empty())) {
    n.closed = true;
    return;
  }
  if (!n.expanded) return;
  for (const auto& e : n.edges) {
    if (e.child < 0 || !tree.node(e.child).closed || Retryable(tree, e, o)) return;
  }
  n.closed = true;
}

// ---- 3. Rollout -----------------------------------------------------------------------

Result<std::vector<int>> RolloutOnce(SearchTree& tree, const Graph& graph, const SearchOptions& o,
                                     Rng& rng, int start, std::vector<int> on_path,
                                     const StepFn& step, const std::function<bool()>& exhausted,
                                     Iteration* it) {
  std::vector<int> reached;
  int r = start;
  while (!exhausted() && tree.node(r).depth < o.max_depth) {
    Expand(tree, r, graph, o.seed);
    const TreeNode& rn = tree.node(r);
    if (rn.edges.empty()) break;
    int ei = RolloutEdge(tree, rn, o.rollout_epsilon, o.rollout_lambda, rng);
    it->path.push_back({r, ei});
    int next = rn.edges[static_cast<size_t>(ei)].child;
    if (next < 0) {
      RG_ASSIGN_OR_RETURN(next, step(r, ei));
    }
    if (Contains(on_path, next) || next == r) break;
    reached.push_back(next);
    on_path.push_back(next);
    r = next;
    if (tree.node(r).failed) break;
  }
  return reached;
}

Status Rollout(SearchTree& tree, const Graph& graph, const SearchOptions& o, Rng& rng,
               const StepFn& step, const std::function<bool()>& exhausted, Iteration* it) {
  if (it->fresh < 0 || tree.node(it->fresh).failed) return Status::Ok();
  it->on_path.push_back(it->fresh);
  for (int k = 0; k < std::max(1, o.rollouts) && !exhausted(); ++k) {
    RG_ASSIGN_OR_RETURN(auto reached, RolloutOnce(tree, graph, o, rng, it->fresh, it->on_path, step,
                                                  exhausted, it));
    if (!reached.empty()) it->rollouts.push_back(std::move(reached));
  }
  return Status::Ok();
}

// ---- 4. Backup ------------------------------------------------------------------------

Backed Backup(SearchTree& tree, const SearchOptions& o, const Iteration& it) {
  Backed b;
  std::vector<double> suffix;  // per reached state: the best reward from it onwards on its rollout
  if (it.fresh >= 0) {
    b.reached.push_back(it.fresh);
    suffix.push_back(tree.node(it.fresh).reward);
  }
  for (const auto& ro : it.rollouts) {
    std::vector<double> sfx = SuffixMax(tree, ro);
    if (it.fresh >= 0) suffix[0] = std::max(suffix[0], sfx[0]);
    b.reached.insert(b.reached.end(), ro.begin(), ro.end());
    suffix.insert(suffix.end(), sfx.begin(), sfx.end());
  }
  if (b.reached.empty()) {
    b.value = it.cur == 0 ? 0.0 : tree.node(it.cur).reward;  // a terminal or fully explored state
  } else {
    b.value = -std::numeric_limits<double>::infinity();
    for (int t : b.reached) b.value = std::max(b.value, tree.node(t).reward);
  }
  for (const PathStep& s : it.path) ++tree.node(s.node).edges[static_cast<size_t>(s.edge)].visits;
  for (size_t i = 0; i < it.selection_len; ++i) tree.node(it.path[i].node).stats.Add(b.value);
  if (b.reached.empty() && it.cur != 0) tree.node(it.cur).stats.Add(b.value);
  for (size_t i = 0; i < b.reached.size(); ++i) tree.node(b.reached[i]).stats.Add(suffix[i]);
  // Close finished states, deepest first.
  for (auto r = b.reached.rbegin(); r != b.reached.rend(); ++r) UpdateClosed(tree, *r, o);
  for (size_t i = it.path.size(); i-- > 0;) UpdateClosed(tree, it.path[i].node, o);
  return b;
}

OrderedJson IterationLog(int iteration, const Backed& backed, const Iteration& it) {
  OrderedJson entry = {{"iteration", iteration}, {"value", backed.value}};
  OrderedJson p = OrderedJson::array();
  for (size_t i = 0; i < it.selection_len; ++i) p.push_back(it.path[i].node);
  entry["selection"] = p;
  OrderedJson t = OrderedJson::array();
  for (int x : backed.reached) t.push_back(x);
  entry["reached"] = t;  // the fresh state, then every rollout's states (they may repeat)
  return entry;
}

}  // namespace mcgs

namespace {

class Mcgs final : public Reasoner {
 public:
  explicit Mcgs(SearchOptions o) : o_(std::move(o)) {}
  std::string Name() const override { return "regrapht-mcgs"; }

  Result<SearchOutcome> Run(const SearchTask& task, const SearchContext& ctx) override {
    if (!task.graph || !task.examples)
      return Status::InvalidArgument("regrapht-mcgs needs the reasoning graph");
    SearchRun run(task, ctx, o_, Name());
    run_ = &run;
    graph_ = task.graph;
    rng_.Seed(o_.seed);
    tree_.Reset(task.StartCode());
    tree_.set_q_rule(o_.q);
    tree_.node(0).state = static_cast<int>(kInitNode);
    log_ = OrderedJson::array();
    seed_pending_ = !task.seed_code.empty() && !task.kernel_form;
    IterationLoop loop;
    loop.max_iterations = o_.iterations;
    loop.space_exhausted = [this] { return tree_.node(0).closed; };
    loop.exhausted_reason = "search space exhausted (every reachable step generated or terminal)";
    RG_ASSIGN_OR_RETURN(std::string stop,
                        RunIterations(run, loop, [this](int i) { return Iterate(i); }));
    return run.Finish(TreeJson(), stop);
  }

 private:
  // 2. Expand, the generation: the step of edge `ei` of state `ni` (model +
  // verification); returns the child state, shared through the
  // transposition table when the same technique reached the same code.
  Result<int> Step(int ni, int ei) {
    const TreeNode parent = tree_.node(ni);  // copy: the tree may grow
    const TreeEdge& e = parent.edges[static_cast<size_t>(ei)];
    const EdgeId graph_edge = static_cast<EdgeId>(e.action);
    const NodeId action = graph_->edge(graph_edge).to;
    if (seeding_) {
      // The rules' seed instead of a generation (SearchTask::seed_code).
      RG_ASSIGN_OR_RETURN(int a, run_->Seed(run_->TechniqueId(action), static_cast<int>(action)));
      return Attach(ni, ei, a);
    }
    auto examples = run_->EdgeExamples(parent.code, graph_edge, o_.examples_per_step);
    // A retry of a failed step shows the model what went wrong last time.
    std::string failure;
    if (e.child >= 0 && tree_.node(e.child).failed && tree_.node(e.child).attempt >= 0) {
      const Attempt& bad = run_->attempt(tree_.node(e.child).attempt);
      failure = std::string(VerdictName(bad.verdict)) + ": " + bad.detail;
    }
    RG_ASSIGN_OR_RETURN(auto messages, run_->StepMessages(parent.code, action, examples, failure));
    RG_ASSIGN_OR_RETURN(int a, run_->Generate(messages, parent.attempt, run_->TechniqueId(action),
                                              static_cast<int>(action)));
    return Attach(ni, ei, a);
  }

  // The child state of edge `ei` of state `ni` reached by attempt `a`: new,
  // or an existing one through the transposition table.
  int Attach(int ni, int ei, int a) {
    const TreeNode parent = tree_.node(ni);
    const NodeId action =
        graph_->edge(static_cast<EdgeId>(parent.edges[static_cast<size_t>(ei)].action)).to;
    const Attempt& att = run_->attempt(a);
    const std::string key = SearchTree::Key(static_cast<int>(action), att.code_hash);
    std::optional<int> known = tree_.Find(key);
    int child;
    if (o_.share_transpositions && !att.code_hash.empty() && known) {
      child = *known;  // the same technique and code reached another way
    } else {
      TreeNode c;
      c.state = static_cast<int>(action);
      c.code = att.code;
      c.attempt = a;
      c.depth = parent.depth + 1;
      c.reward = att.reward;
      c.failed = run_->Failed(a);
      child = tree_.Add(std::move(c));
      if (!att.code_hash.empty()) tree_.Remember(key, child);
    }
    TreeEdge& taken = tree_.node(ni).edges[static_cast<size_t>(ei)];
    taken.child = child;
    if (tree_.node(child).failed) ++taken.failures;
    return child;
  }

  // The first iteration with a seed selects the root's edge to the seed's
  // technique instead of running P-UCB; nullopt when the graph has none.
  std::optional<mcgs::Iteration> SeedSelection() {
    mcgs::Expand(tree_, 0, *graph_);
    mcgs::UpdateClosed(tree_, 0, o_);
    const auto& edges = tree_.node(0).edges;
    for (size_t ei = 0; ei < edges.size(); ++ei) {
      if (run_->TechniqueId(graph_->edge(static_cast<EdgeId>(edges[ei].action)).to) !=
          run_->task().seed_technique)
        continue;
      mcgs::Iteration it;
      it.on_path = {0};
      it.path.push_back({0, static_cast<int>(ei)});
      it.pending = true;
      it.selection_len = 1;
      return it;
    }
    return std::nullopt;
  }

  Status Iterate(int iteration) {
    run_->Emit(iteration, "select");
    auto exhausted = [this] { return run_->Exhausted(); };
    mcgs::StepFn step = [this](int ni, int ei) { return Step(ni, ei); };
    std::optional<mcgs::Iteration> seeded;
    if (seed_pending_) {
      seed_pending_ = false;
      seeded = SeedSelection();
    }
    mcgs::Iteration it = seeded ? *seeded : mcgs::Select(tree_, *graph_, o_);  // 1.
    if (it.pending) {                                                                // 2.
      if (exhausted()) return Status::Ok();
      const PathStep last = it.path.back();
      seeding_ = seeded.has_value();
      Result<int> fresh = Step(last.node, last.edge);
      seeding_ = false;
      RG_ASSIGN_OR_RETURN(it.fresh, std::move(fresh));
      it.cur = it.fresh;
    }
    RG_RETURN_IF_ERROR(mcgs::Rollout(tree_, *graph_, o_, rng_, step, exhausted, &it));  // 3.
    mcgs::Backed backed = mcgs::Backup(tree_, o_, it);                                  // 4.
    log_.push_back(mcgs::IterationLog(iteration, backed, it));
    return Status::Ok();
  }

  std::string TreeJson() const {
    auto node_label = [this](const TreeNode& n) {
      return n.id == 0 ? std::string("init") : run_->TechniqueId(static_cast<NodeId>(n.state));
    };
    auto edge_label = [this](const TreeEdge& e) {
      return run_->TechniqueId(graph_->edge(static_cast<EdgeId>(e.action)).to);
    };
    OrderedJson j = {{"method", "regrapht-mcgs"},
                     {"exploration_c", o_.exploration_c},
                     {"rollout_epsilon", o_.rollout_epsilon},
                     {"rollout_lambda", o_.rollout_lambda},
                     {"rollouts", o_.rollouts},
                     {"q", o_.q == SearchOptions::QRule::kMax ? "max" : "mean"},
                     {"max_depth", o_.max_depth},
                     {"nodes", TreeNodesJson(tree_, "technique", node_label, edge_label)},
                     {"iterations", log_}};
    return j.dump(1);
  }

  SearchOptions o_;
  SearchRun* run_ = nullptr;
  const Graph* graph_ = nullptr;
  Rng rng_;
  SearchTree tree_;
  OrderedJson log_;
  bool seed_pending_ = false;  // the task's seed is still to be placed
  bool seeding_ = false;       // Step() records the seed instead of generating
};

}  // namespace

std::unique_ptr<Reasoner> NewMcgs(const SearchOptions& options) {
  return std::make_unique<Mcgs>(options);
}

}  // namespace regrapht::search
