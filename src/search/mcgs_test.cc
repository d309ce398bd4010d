// The steps of one MCGS iteration (mcgs.h) on hand-built trees and a small
// graph, without a model: the generation of a step is a StepFn that adds the
// child state by hand.
#include "search/mcgs.h"

#include <gtest/gtest.h>

#include <map>

namespace regrapht::search::mcgs {
namespace {

//   init --a (3 examples)--> A --> C
//        --b (1 example)---> B
struct SmallGraph {
  Graph g;
  NodeId a, b, c;
  EdgeId to_a, to_b, a_to_c;
  NodeId Add(const std::string& id) {
    NodeSpec s;
    s.name = id;
    s.technique = id;
    return *g.AddNode(s);
  }
  void Examples(EdgeId e, int n) {
    for (int i = 0; i < n; ++i) {
      Example ex;
      ex.kernel = "k" + std::to_string(e) + "_" + std::to_string(i);
      ex.before = "before";
      ex.after = "after" + std::to_string(i);
      g.AddExample(e, ex);
    }
  }
  SmallGraph() {
    a = Add("a");
    b = Add("b");
    c = Add("c");
    to_a = *g.AddEdge(kInitNode, a);
    to_b = *g.AddEdge(kInitNode, b);
    a_to_c = *g.AddEdge(a, c);
    Examples(to_a, 3);
    Examples(to_b, 1);
    Examples(a_to_c, 1);
  }
};

class McgsStepsTest : public testing::Test {
 protected:
  McgsStepsTest() {
    tree_.Reset("seq");
    o_.max_depth = 3;
    o_.step_retries = 1;
  }

  // Generates the child of edge `ei` of `ni` by hand: reward from rewards_
  // by graph node (default 1), failed when -1.
  int Generate(int ni, int ei) {
    const TreeEdge e = tree_.node(ni).edges[static_cast<size_t>(ei)];
    TreeNode c;
    c.state = static_cast<int>(g_.g.edge(static_cast<EdgeId>(e.action)).to);
    c.depth = tree_.node(ni).depth + 1;
    c.attempt = ++attempts_;
    c.reward = rewards_.count(c.state) ? rewards_[c.state] : 1.0;
    c.failed = c.reward <= -1;
    int id = tree_.Add(c);
    TreeEdge& taken = tree_.node(ni).edges[static_cast<size_t>(ei)];
    taken.child = id;
    if (c.failed) ++taken.failures;
    ++steps_;
    return id;
  }
  // An iteration whose selection took the root's edge `ei` and generated its step.
  Iteration Selected(int ei) {
    Expand(tree_, 0, g_.g);
    Iteration it;
    it.path = {{0, ei}};
    it.selection_len = 1;
    it.on_path = {0};
    it.fresh = Generate(0, ei);
    it.cur = it.fresh;
    return it;
  }
  StepFn Step() {
    return [this](int ni, int ei) -> Result<int> { return Generate(ni, ei); };
  }

  SmallGraph g_;
  SearchTree tree_;
  SearchOptions o_;
  std::map<int, double> rewards_;
  int attempts_ = -1;
  int steps_ = 0;
};

TEST_F(McgsStepsTest, ExpandAddsOneEdgePerSuccessorOnce) {
  Expand(tree_, 0, g_.g);
  ASSERT_EQ(tree_.node(0).edges.size(), 2u);
  EXPECT_TRUE(tree_.node(0).expanded);
  EXPECT_EQ(tree_.node(0).edges[0].action, static_cast<int>(g_.to_a));
  EXPECT_EQ(tree_.node(0).edges[0].prior, 3);  // examples on the graph edge
  EXPECT_EQ(tree_.node(0).edges[1].prior, 1);
  EXPECT_EQ(tree_.node(0).edges[0].child, -1);
  Expand(tree_, 0, g_.g);
  EXPECT_EQ(tree_.node(0).edges.size(), 2u);
}

TEST_F(McgsStepsTest, SelectStopsAtTheMostCommonUngeneratedTransition) {
  Iteration it = Select(tree_, g_.g, o_);
  EXPECT_TRUE(it.pending);
  ASSERT_EQ(it.path.size(), 1u);
  EXPECT_EQ(it.path[0].node, 0);
  EXPECT_EQ(it.path[0].edge, 0);  // to a: 3 examples against 1
  EXPECT_EQ(it.selection_len, 1u);
  EXPECT_EQ(it.cur, 0);
  EXPECT_EQ(it.on_path, std::vector<int>{0});
}

TEST_F(McgsStepsTest, SelectDescendsThroughGeneratedStatesByPucb) {
  Expand(tree_, 0, g_.g);
  int a = Generate(0, 0), b = Generate(0, 1);
  tree_.node(0).stats = {2, 2.5, 2};
  tree_.node(0).edges[0].visits = tree_.node(0).edges[1].visits = 1;
  tree_.node(a).stats = {1, 2.0, 2.0};
  tree_.node(b).stats = {1, 0.5, 0.5};
  Iteration it = Select(tree_, g_.g, o_);
  ASSERT_EQ(it.path.size(), 2u);
  EXPECT_EQ(it.path[0].edge, 0);  // a: Q 2 against 0.5
  EXPECT_EQ(it.path[1].node, a);  // expanded on the way: its edge to c is pending
  EXPECT_TRUE(tree_.node(a).expanded);
  EXPECT_TRUE(it.pending);
  EXPECT_EQ(it.on_path, (std::vector<int>{0, a}));
  EXPECT_EQ(it.cur, a);
  // A closed state is not selected: b is chosen although its Q is lower.
  tree_.node(a).closed = true;
  Iteration it2 = Select(tree_, g_.g, o_);
  EXPECT_EQ(it2.path[0].edge, 1);
  EXPECT_FALSE(it2.pending);  // b has no successor: it is closed on the way, nothing to generate
  EXPECT_EQ(it2.cur, b);
  EXPECT_TRUE(tree_.node(b).closed);
}

TEST_F(McgsStepsTest, AFailedStepIsRetriedUntilItsRetriesAreSpent) {
  rewards_[static_cast<int>(g_.a)] = -1;
  Expand(tree_, 0, g_.g);
  int bad = Generate(0, 0);
  UpdateClosed(tree_, bad, o_);
  EXPECT_TRUE(tree_.node(bad).closed);
  EXPECT_TRUE(
      Retryable(tree_, tree_.node(0).edges[0], o_));  // 1 failure, 1 retry allowed
  UpdateClosed(tree_, 0, o_);
  EXPECT_FALSE(tree_.node(0).closed);
  int b = Generate(0, 1);
  Expand(tree_, b, g_.g);
  UpdateClosed(tree_, b, o_);  // no successor: closed
  tree_.node(0).edges[0].visits = tree_.node(0).edges[1].visits = 1;
  tree_.node(0).stats.visits = 2;
  tree_.node(bad).stats = {1, -1, -1};
  Iteration it = Select(tree_, g_.g, o_);
  EXPECT_TRUE(it.pending);  // the retry of a's failed step
  EXPECT_EQ(it.path[0].edge, 0);
  int again = Generate(0, 0);  // fails too: 2 failures > 1 retry
  EXPECT_FALSE(Retryable(tree_, tree_.node(0).edges[0], o_));
  UpdateClosed(tree_, again, o_);
  UpdateClosed(tree_, 0, o_);
  EXPECT_TRUE(tree_.node(0).closed);  // nothing left to generate
}

TEST_F(McgsStepsTest, UpdateClosedRules) {
  Expand(tree_, 0, g_.g);
  int a = Generate(0, 0);
  UpdateClosed(tree_, a, o_);
  EXPECT_FALSE(tree_.node(a).closed);  // not expanded yet
  TreeNode deep;
  deep.depth = o_.max_depth;
  int d = tree_.Add(deep);
  UpdateClosed(tree_, d, o_);
  EXPECT_TRUE(tree_.node(d).closed);  // the step cap
  int b = Generate(0, 1);
  Expand(tree_, b, g_.g);
  UpdateClosed(tree_, b, o_);
  EXPECT_TRUE(tree_.node(b).closed);  // no successor
  UpdateClosed(tree_, 0, o_);
  EXPECT_FALSE(tree_.node(0).closed);  // a is open
  tree_.node(a).closed = true;
  UpdateClosed(tree_, 0, o_);
  EXPECT_TRUE(tree_.node(0).closed);  // every edge leads to a closed state
}

TEST_F(McgsStepsTest, RolloutStepsUntilTheStepCapAndRecordsItsEdges) {
  Iteration it = Selected(0);
  o_.rollout_epsilon = 0;
  Rng rng(1);
  ASSERT_TRUE(Rollout(
                  tree_, g_.g, o_, rng, Step(), [] { return false; }, &it)
                  .ok());
  // a -> c, then c has no successor.
  ASSERT_EQ(it.rollouts.size(), 1u);
  ASSERT_EQ(it.rollouts[0].size(), 1u);
  int c = it.rollouts[0][0];
  EXPECT_EQ(tree_.node(c).state, static_cast<int>(g_.c));
  EXPECT_EQ(it.path.size(), 2u);
  EXPECT_EQ(it.path[1].node, it.fresh);
  EXPECT_EQ(it.on_path, (std::vector<int>{0, it.fresh}));
  EXPECT_EQ(steps_, 2);
}

TEST_F(McgsStepsTest, SeveralRolloutsReuseGeneratedStates) {
  Iteration it = Selected(0);
  o_.rollouts = 3;
  Rng rng(1);
  ASSERT_TRUE(Rollout(
                  tree_, g_.g, o_, rng, Step(), [] { return false; }, &it)
                  .ok());
  EXPECT_EQ(it.rollouts.size(), 3u);
  EXPECT_EQ(steps_, 2);  // c was generated once; the other rollouts walk to it again
  EXPECT_EQ(it.rollouts[1], it.rollouts[0]);
}

TEST_F(McgsStepsTest, NoRolloutFromAFailedStateOrOnceExhausted) {
  rewards_[static_cast<int>(g_.a)] = -1;
  Expand(tree_, 0, g_.g);
  Iteration it;
  it.fresh = Generate(0, 0);
  Rng rng(1);
  ASSERT_TRUE(Rollout(
                  tree_, g_.g, o_, rng, Step(), [] { return false; }, &it)
                  .ok());
  EXPECT_TRUE(it.rollouts.empty());
  rewards_.clear();
  Iteration it2;
  it2.fresh = Generate(0, 1);
  ASSERT_TRUE(Rollout(
                  tree_, g_.g, o_, rng, Step(), [] { return true; }, &it2)
                  .ok());
  EXPECT_TRUE(it2.rollouts.empty());
}

TEST_F(McgsStepsTest, RolloutStopsAtAFailingStep) {
  rewards_[static_cast<int>(g_.c)] = -1;
  Expand(tree_, 0, g_.g);
  Iteration it;
  it.fresh = Generate(0, 0);
  o_.rollout_epsilon = 0;
  Rng rng(1);
  auto reached = RolloutOnce(
      tree_, g_.g, o_, rng, it.fresh, {0, it.fresh}, Step(), [] { return false; }, &it);
  ASSERT_TRUE(reached.ok());
  ASSERT_EQ(reached->size(), 1u);
  EXPECT_TRUE(tree_.node((*reached)[0]).failed);
}

TEST_F(McgsStepsTest, BackupCarriesTheMaximumUpAndSuffixMaximaAlongRollouts) {
  // root -a-> A (reward 2, fresh) -> C (reward 5) in one rollout.
  rewards_[static_cast<int>(g_.a)] = 2;
  rewards_[static_cast<int>(g_.c)] = 5;
  Iteration it = Selected(0);
  Expand(tree_, it.fresh, g_.g);
  int c = Generate(it.fresh, 0);
  Expand(tree_, c, g_.g);  // as the rollout did before it stopped there
  it.path.push_back({it.fresh, 0});
  it.rollouts = {{c}};
  Backed b = Backup(tree_, o_, it);
  EXPECT_EQ(b.value, 5);
  EXPECT_EQ(b.reached, (std::vector<int>{it.fresh, c}));
  EXPECT_EQ(tree_.node(0).stats.visits, 1);
  EXPECT_EQ(tree_.node(0).stats.value_sum, 5);  // the maximum, not the mean
  EXPECT_EQ(tree_.node(0).stats.value_max, 5);
  EXPECT_EQ(tree_.node(it.fresh).stats.value_sum, 5);  // the best from it onwards
  EXPECT_EQ(tree_.node(c).stats.value_sum, 5);
  EXPECT_EQ(tree_.node(0).edges[0].visits, 1);
  EXPECT_EQ(tree_.node(it.fresh).edges[0].visits, 1);  // rollout edges count too
  EXPECT_TRUE(tree_.node(c).closed);                   // no successor
  EXPECT_TRUE(tree_.node(it.fresh).closed);            // its only edge leads to a closed state
  EXPECT_FALSE(tree_.node(0).closed);                  // b is not generated yet
  OrderedJson log = IterationLog(4, b, it);
  EXPECT_EQ(log.dump(), "{\"iteration\":4,\"value\":5.0,\"selection\":[0],\"reached\":[1,2]}");
}

TEST_F(McgsStepsTest, BackupWithoutAFreshStateUsesWhereTheSelectionEnded) {
  rewards_[static_cast<int>(g_.b)] = 3;
  Expand(tree_, 0, g_.g);
  int b = Generate(0, 1);
  Iteration it;
  it.path = {{0, 1}};
  it.selection_len = 1;
  it.cur = b;  // a terminal state reached through generated states
  Backed backed = Backup(tree_, o_, it);
  EXPECT_EQ(backed.value, 3);
  EXPECT_TRUE(backed.reached.empty());
  EXPECT_EQ(tree_.node(b).stats.visits, 1);
  EXPECT_EQ(tree_.node(0).stats.value_sum, 3);
  // A selection that ended at the root with no step backs up 0 and visits nothing.
  Iteration at_root;
  Backed zero = Backup(tree_, o_, at_root);
  EXPECT_EQ(zero.value, 0);
  EXPECT_EQ(tree_.node(0).stats.visits, 1);
}

}  // namespace
}  // namespace regrapht::search::mcgs
