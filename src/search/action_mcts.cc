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
// Both: UCT selection (unvisited actions first, then Q + c*sqrt(ln N / n)),
// one action generated per iteration, its reward backed up as a mean. From
// the sequential code the first actions are first CUDA versions: samples of
// the standard prompt (rethink) or the most similar corpus kernels (RAG).
#include <cctype>
#include <cmath>
#include <limits>

#include "core/json_util.h"
#include "core/strings.h"
#include "search/reasoners.h"
#include "search/search_run.h"

namespace regrapht::search {
namespace {

struct Action {
  std::string label;
  std::string thought;                  // rethink
  std::optional<ShownExample> example;  // mcts-rag
  int child = -1;
  int visits = 0;
};

struct State {
  int attempt = -1;
  std::string code;
  int depth = 0;
  double reward = 0;
  bool failed = false;
  int visits = 0;
  double value_sum = 0;
  bool expanded = false;
  std::vector<Action> actions;
  double Q() const { return visits ? value_sum / visits : 0; }
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
    states_.clear();
    State root;
    root.code = task.StartCode();
    states_.push_back(root);
    std::string stop;
    int iteration = 0, idle = 0;
    while (!run.Exhausted(&stop)) {
      if (o_.iterations > 0 && iteration >= o_.iterations) {
        stop = "iterations: " + std::to_string(o_.iterations);
        break;
      }
      int before = run.generations();
      RG_RETURN_IF_ERROR(Iterate(++iteration));
      if (run.generations() == before && ++idle >= 64) {
        stop = "search space exhausted";
        break;
      }
      if (run.generations() != before) idle = 0;
    }
    return run.Finish(TreeJson(), stop);
  }

 private:
  Status Propose(int si) {
    State& s = states_[si];
    s.expanded = true;
    int k = std::max(1, o_.thoughts_per_node);
    if (rag_) {
      auto shown = si == 0 ? run_->SimilarKernels(s.code, k) : run_->PoolExamples(s.code, k);
      for (auto& ex : shown) {
        Action a;
        a.label = "example: " + (ex.from.empty() ? ex.to : ex.from + " -> " + ex.to);
        a.example = ex;
        states_[si].actions.push_back(a);
      }
      return Status::Ok();
    }
    if (si == 0) {
      for (int i = 0; i < k; ++i) {
        Action a;
        a.label = "first CUDA version #" + std::to_string(i + 1);
        s.actions.push_back(a);
      }
      return Status::Ok();
    }
    if (run_->Exhausted()) return Status::Ok();
    RG_ASSIGN_OR_RETURN(auto m, run_->Messages("thoughts.txt", {{"code", s.code}, {"count", std::to_string(k)}}));
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
      states_[si].actions.push_back(a);
      if (static_cast<int>(states_[si].actions.size()) >= k) break;
    }
    if (states_[si].actions.empty()) {
      Action a;
      a.thought = "make it faster on the GPU";
      a.label = "thought: (none parsed) " + a.thought;
      states_[si].actions.push_back(a);
    }
    return Status::Ok();
  }

  Result<int> Apply(int si, int ai) {
    const State s = states_[si];
    const Action act = s.actions[ai];
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
    State c;
    c.attempt = a;
    c.code = run_->attempt(a).code;
    c.depth = s.depth + 1;
    c.reward = run_->attempt(a).reward;
    c.failed = run_->Failed(a);
    states_.push_back(c);
    int ci = static_cast<int>(states_.size()) - 1;
    states_[si].actions[ai].child = ci;
    return ci;
  }

  Status Iterate(int iteration) {
    std::vector<std::pair<int, int>> path;
    int cur = 0, fresh = -1;
    while (true) {
      if (!states_[cur].expanded) RG_RETURN_IF_ERROR(Propose(cur));
      State& s = states_[cur];
      if (s.failed || s.actions.empty() || s.depth >= o_.max_depth) break;
      int best = -1;
      double best_v = -std::numeric_limits<double>::infinity();
      double ln_n = std::log(std::max(1, s.visits));
      for (size_t i = 0; i < s.actions.size(); ++i) {
        const Action& a = s.actions[i];
        double v = a.visits == 0 ? 1e9 - static_cast<double>(i)
                                 : (a.child >= 0 ? states_[a.child].Q() : 0) + o_.exploration_c * std::sqrt(ln_n / a.visits);
        if (v > best_v) {
          best_v = v;
          best = static_cast<int>(i);
        }
      }
      path.push_back({cur, best});
      run_->Emit(iteration, s.actions[best].label);
      if (s.actions[best].child < 0) {
        if (run_->Exhausted()) return Status::Ok();
        RG_ASSIGN_OR_RETURN(fresh, Apply(cur, best));
        break;
      }
      cur = s.actions[best].child;
    }
    double value = fresh >= 0 ? states_[fresh].reward : states_[cur].reward;
    for (auto [si, ai] : path) {
      ++states_[si].visits;
      states_[si].value_sum += value;
      ++states_[si].actions[ai].visits;
    }
    int leaf = fresh >= 0 ? fresh : cur;
    if (leaf != 0) {
      ++states_[leaf].visits;
      states_[leaf].value_sum += value;
    }
    return Status::Ok();
  }

  std::string TreeJson() const {
    OrderedJson arr = OrderedJson::array();
    for (size_t i = 0; i < states_.size(); ++i) {
      const State& s = states_[i];
      OrderedJson acts = OrderedJson::array();
      for (const auto& a : s.actions) acts.push_back({{"label", a.label}, {"child", a.child}, {"visits", a.visits}});
      arr.push_back({{"id", i}, {"attempt", s.attempt}, {"depth", s.depth}, {"reward", s.reward},
                     {"failed", s.failed}, {"visits", s.visits}, {"actions", acts}});
    }
    return OrderedJson({{"method", Name()}, {"states", arr}}).dump(1);
  }

  SearchOptions o_;
  bool rag_;
  SearchRun* run_ = nullptr;
  const SearchContext* ctx_ = nullptr;
  std::vector<State> states_;
};

}  // namespace

std::unique_ptr<Reasoner> NewRethinkMcts(const SearchOptions& o) { return std::make_unique<ActionMcts>(o, false); }
std::unique_ptr<Reasoner> NewMctsRag(const SearchOptions& o) { return std::make_unique<ActionMcts>(o, true); }

}  // namespace regrapht::search
