// Tree searches whose actions are proposed per state, after RethinkMCTS and
// MCTS-RAG (docs/search.md):
//
//   rethink-mcts  the model proposes `thoughts_per_node` free-form ideas for
//                 the current code (one request); each idea is an action
//                 applied by another request. A step that fails verification
//                 is refined with the verifier's message (`refine_attempts`
//                 times) before it counts as failed: the "rethink".
//   mcts-rag      actions are the `thoughts_per_node` worked examples of the
//                 whole pool most similar to the current code (BM25); a step
//                 asks the model to follow one.
//
// Both: UCT selection (unvisited actions first, in the order proposed, then
// Q + c*sqrt(ln N / n)), one action generated per iteration, its reward
// backed up as a mean: the shared tree core (tree.h). A failed action is
// generated again when selected, as MCGS retries a failed step
// (step_retries, close_failed_edges); states with nothing left to generate
// are closed, so that the budget is spent unless every action is closed. From
// the sequential code the first actions are first CUDA versions: samples of
// the standard prompt (rethink) or the most similar corpus kernels (RAG).
#include <cctype>

#include "core/json_util.h"
#include "core/strings.h"
#include "search/attempt_json.h"
#include "search/reasoners.h"
#include "search/search_run.h"
#include "search/stop.h"
#include "search/tree.h"

namespace regrapht::search {
namespace {

// An action's payload; its tree edge holds the statistics (tree.h).
struct Action {
  std::string label;
  std::string thought;                  // rethink
  std::optional<ShownExample> example;  // mcts-rag
};

class ActionMcts final : public Reasoner {
 public:
  ActionMcts(SearchOptions o, bool rag) : o_(std::move(o)), rag_(rag) {}
  std::string Name() const override { return rag_ ? "mcts-rag" : "rethink-mcts"; }

  Result<SearchOutcome> Run(const SearchTask& task, const SearchContext& ctx) override {
    if (rag_ && (!task.graph || !task.examples)) return Status::InvalidArgument("mcts-rag needs the example pool");
    SearchRun run(task, ctx, o_, Name());
    run_ = &run;
    ctx_ = &ctx;
    tree_.Reset(task.StartCode());
    actions_.clear();
    IterationLoop loop;
    loop.max_iterations = o_.iterations;
    loop.space_exhausted = [this] { return tree_.node(0).closed; };
    loop.exhausted_reason = "search space exhausted (every action at the step cap or failed past its retries)";
    RG_ASSIGN_OR_RETURN(std::string stop, RunIterations(run, loop, [this](int i) { return Iterate(i); }));
    return run.Finish(TreeJson(), stop);
  }

 private:
  // Adds an action to state `si`; unvisited actions are tried in insertion
  // order (the prior).
  void AddAction(int si, Action a) {
    TreeNode& s = tree_.node(si);
    TreeEdge e;
    e.action = static_cast<int>(actions_.size());
    e.prior = -static_cast<double>(s.edges.size());
    s.edges.push_back(e);
    actions_.push_back(std::move(a));
  }

  // The expansion: the actions of state `si`.
  Status Propose(int si) {
    tree_.node(si).expanded = true;
    const std::string code = tree_.node(si).code;
    int k = std::max(1, o_.thoughts_per_node);
    if (rag_) {
      auto shown = si == 0 ? run_->SimilarKernels(code, k) : run_->PoolExamples(code, k);
      for (auto& ex : shown) {
        Action a;
        a.label = "example: " + (ex.from.empty() ? ex.to : ex.from + " -> " + ex.to);
        a.example = ex;
        AddAction(si, std::move(a));
      }
      return Status::Ok();
    }
    if (si == 0) {
      for (int i = 0; i < k; ++i) {
        Action a;
        a.label = "first CUDA version #" + std::to_string(i + 1);
        AddAction(si, std::move(a));
      }
      return Status::Ok();
    }
    if (run_->Exhausted()) {
      tree_.node(si).expanded = false;  // not proposed: the budget is spent
      return Status::Ok();
    }
    RG_ASSIGN_OR_RETURN(auto m, run_->Messages("thoughts.txt", {{"code", code}, {"count", std::to_string(k)}}));
    RG_ASSIGN_OR_RETURN(std::string text, run_->ChatText(m));
    for (const auto& line : SplitLines(text)) {
      std::string t(Trim(line));
      size_t i = 0;
      while (i < t.size() && (std::isdigit(static_cast<unsigned char>(t[i])) || t[i] == '.' || t[i] == ')' ||
                              t[i] == '-' || t[i] == '*' || t[i] == ' ')) {
        ++i;
      }
      t = t.substr(i);
      if (t.size() < 4) continue;
      Action a;
      a.thought = t.substr(0, 300);
      a.label = "thought: " + a.thought;
      AddAction(si, std::move(a));
      if (static_cast<int>(tree_.node(si).edges.size()) >= k) break;
    }
    if (tree_.node(si).edges.empty()) {
      Action a;
      a.thought = "make it faster on the GPU";
      a.label = "thought: (none parsed) " + a.thought;
      AddAction(si, std::move(a));
    }
    return Status::Ok();
  }

  // Generates the step of edge `ei` of state `si`; returns the new state.
  Result<int> Apply(int si, int ei) {
    const TreeNode s = tree_.node(si);  // copy: the tree grows
    const Action act = actions_[static_cast<size_t>(s.edges[static_cast<size_t>(ei)].action)];
    std::vector<ChatMessage> m;
    if (rag_) {
      const ShownExample& ex = *act.example;
      if (si == 0) {
        RG_ASSIGN_OR_RETURN(std::string block, ctx_->prompts->Render("rag_example.txt", {{"techniques", ex.to},
                                                                                       {"before", ex.before},
                                                                                       {"after", ex.after}}));
        RG_ASSIGN_OR_RETURN(m, run_->Messages("rag.txt", {{"code", s.code}, {"examples", block}}));
      } else {
        auto node = run_->task().graph->FindNode(ex.to);
        RG_ASSIGN_OR_RETURN(m, run_->StepMessages(s.code, node.value_or(kInitNode), {ex}, ""));
      }
    } else if (si == 0) {
      RG_ASSIGN_OR_RETURN(m, run_->Messages("standard.txt", {{"code", s.code}}));
    } else {
      RG_ASSIGN_OR_RETURN(m, run_->Messages("thought_step.txt", {{"thought", act.thought}, {"code", s.code}, {"failure", ""}}));
    }
    RG_ASSIGN_OR_RETURN(int a, run_->Generate(m, s.attempt, act.label, -1));
    // Rethink: refine a failing step with the verifier's message.
    for (int r = 0; !rag_ && r < o_.refine_attempts && run_->Failed(a) && !run_->Exhausted(); ++r) {
      const Attempt& bad = run_->attempt(a);
      if (bad.code.empty()) break;
      RG_ASSIGN_OR_RETURN(auto rm, run_->Messages("refine.txt", {{"failure", bad.detail}, {"code", bad.code}}));
      RG_ASSIGN_OR_RETURN(a, run_->Generate(rm, a, "refine", -1));
    }
    TreeNode c;
    c.attempt = a;
    c.code = run_->attempt(a).code;
    c.depth = s.depth + 1;
    c.reward = run_->attempt(a).reward;
    c.failed = run_->Failed(a);
    int ci = tree_.Add(std::move(c));
    TreeEdge& taken = tree_.node(si).edges[static_cast<size_t>(ei)];
    taken.child = ci;
    if (tree_.node(ci).failed) ++taken.failures;
    return ci;
  }

  // A failed step is generated again (the model is stochastic) until it
  // failed 1 + step_retries times; without close_failed_edges, always.
  bool Retryable(const TreeEdge& e) const {
    if (e.child < 0 || !tree_.node(e.child).failed) return false;
    return !o_.close_failed_edges || e.failures <= o_.step_retries;
  }

  // Closes a state below which nothing can be generated any more: its step
  // failed, it sits at the step cap, it has no action, or every action led
  // to a closed state that is not retryable.
  void UpdateClosed(int si) {
    TreeNode& s = tree_.node(si);
    if (s.closed) return;
    if (s.failed || s.depth >= o_.max_depth || (s.expanded && s.edges.empty())) {
      s.closed = true;
      return;
    }
    if (!s.expanded) return;
    for (const TreeEdge& e : s.edges) {
      if (e.child < 0 || !tree_.node(e.child).closed || Retryable(e)) return;
    }
    s.closed = true;
  }

  // Select by UCT (closed states skipped) down to an action not generated
  // yet, or one whose step failed and may be retried; generate it; back up
  // its reward as a mean; close finished states, deepest first.
  Status Iterate(int iteration) {
    std::vector<PathStep> path;
    int cur = 0, fresh = -1;
    auto skip = [this](const TreeEdge& e) {
      return e.child >= 0 && tree_.node(e.child).closed && !Retryable(e);
    };
    while (true) {
      if (!tree_.node(cur).expanded) {
        RG_RETURN_IF_ERROR(Propose(cur));
        if (!tree_.node(cur).expanded) return Status::Ok();  // the budget ran out first
      }
      UpdateClosed(cur);
      const TreeNode& s = tree_.node(cur);
      if (s.closed) break;
      int best = SelectUct(tree_, s, o_.exploration_c, skip);
      if (best < 0) break;
      path.push_back({cur, best});
      const TreeEdge& e = s.edges[static_cast<size_t>(best)];
      run_->Emit(iteration, actions_[static_cast<size_t>(e.action)].label);
      if (e.child < 0 || Retryable(e)) {
        if (run_->Exhausted()) return Status::Ok();
        RG_ASSIGN_OR_RETURN(fresh, Apply(cur, best));
        break;
      }
      cur = e.child;
    }
    int leaf = fresh >= 0 ? fresh : cur;
    double value = tree_.node(leaf).reward;
    BackupMean(tree_, path, value);
    if (leaf != 0) tree_.node(leaf).stats.Add(value);
    UpdateClosed(leaf);
    for (size_t i = path.size(); i-- > 0;) UpdateClosed(path[i].node);
    return Status::Ok();
  }

  std::string TreeJson() const {
    auto node_label = [this](const TreeNode& n) {
      return n.attempt < 0 ? std::string("init") : run_->attempt(n.attempt).action;
    };
    auto edge_label = [this](const TreeEdge& e) { return actions_[static_cast<size_t>(e.action)].label; };
    OrderedJson j = {{"method", Name()},
                     {"exploration_c", o_.exploration_c},
                     {"max_depth", o_.max_depth},
                     {"nodes", TreeNodesJson(tree_, "label", node_label, edge_label)}};
    return j.dump(1);
  }

  SearchOptions o_;
  bool rag_;
  SearchRun* run_ = nullptr;
  const SearchContext* ctx_ = nullptr;
  SearchTree tree_;
  std::vector<Action> actions_;  // indexed by TreeEdge::action
};

}  // namespace

std::unique_ptr<Reasoner> NewRethinkMcts(const SearchOptions& o) { return std::make_unique<ActionMcts>(o, false); }
std::unique_ptr<Reasoner> NewMctsRag(const SearchOptions& o) { return std::make_unique<ActionMcts>(o, true); }

}  // namespace regrapht::search
