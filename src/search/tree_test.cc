// The tree-search core (tree.h) on hand-built trees: statistics, the
// selection rules, the rollout policy, the backups, the transposition table.
#include "search/tree.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

namespace regrapht::search {
namespace {

// A root with `children` generated children, one edge each; child i has
// visits[i] visits and value sum sums[i], its edge visits[i] visits.
SearchTree Star(const std::vector<int>& visits, const std::vector<double>& sums) {
  SearchTree t;
  t.Reset("root code");
  for (size_t i = 0; i < visits.size(); ++i) {
    TreeNode c;
    c.depth = 1;
    c.stats.visits = visits[i];
    c.stats.value_sum = sums[i];
    int id = t.Add(c);
    TreeEdge e;
    e.action = static_cast<int>(i);
    e.child = id;
    e.visits = visits[i];
    t.node(0).edges.push_back(e);
    t.node(0).stats.visits += visits[i];
  }
  return t;
}

TEST(TreeTest, StatsAreTheMeanAndTheMaximum) {
  NodeStats s;
  EXPECT_EQ(s.Q(), 0.0);
  EXPECT_TRUE(std::isinf(s.value_max) && s.value_max < 0);
  s.Add(2);
  s.Add(-1);
  s.Add(5);
  EXPECT_EQ(s.visits, 3);
  EXPECT_DOUBLE_EQ(s.Q(), 2.0);
  EXPECT_EQ(s.value_max, 5.0);
}

TEST(TreeTest, ResetAddAndTheTranspositionTable) {
  SearchTree t;
  t.Reset("seq");
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t.node(0).code, "seq");
  TreeNode c;
  c.code = "cuda";
  EXPECT_EQ(t.Add(c), 1);
  EXPECT_EQ(t.node(1).id, 1);
  EXPECT_EQ(SearchTree::Key(7, "abc"), "7:abc");
  EXPECT_FALSE(t.Find("7:abc"));
  t.Remember("7:abc", 1);
  EXPECT_EQ(t.Find("7:abc"), 1);
  t.Reset("again");
  EXPECT_EQ(t.size(), 1u);
  EXPECT_FALSE(t.Find("7:abc"));  // a new search starts with an empty table
}

TEST(TreeTest, UcbScore) {
  SearchTree t = Star({3, 1}, {3.0, 4.0});
  const TreeNode& root = t.node(0);
  double ln4 = std::log(4.0);
  EXPECT_DOUBLE_EQ(UcbScore(t, root, root.edges[0], 2.0), 1.0 + 2.0 * std::sqrt(ln4 / 3));
  EXPECT_DOUBLE_EQ(UcbScore(t, root, root.edges[1], 2.0), 4.0 + 2.0 * std::sqrt(ln4 / 1));
  TreeEdge fresh;
  fresh.prior = 7;
  EXPECT_EQ(UcbScore(t, root, fresh, 2.0), 1e9 + 7);  // unvisited first, by prior
}

TEST(TreeTest, PucbTakesUnvisitedEdgesByPriorThenTheBestScore) {
  SearchTree t = Star({2, 2}, {0.0, 4.0});
  // Visited: the second child's Q (2) wins.
  EXPECT_EQ(SelectPucb(t, t.node(0), 1.4, nullptr), 1);
  // An unvisited edge comes first; among unvisited ones the higher prior.
  TreeEdge low, high;
  low.prior = 1;
  high.prior = 3;
  t.node(0).edges.push_back(low);
  t.node(0).edges.push_back(high);
  EXPECT_EQ(SelectPucb(t, t.node(0), 1.4, nullptr), 3);
  // Skipped edges are never chosen; all skipped: -1.
  auto skip_unvisited = [](const TreeEdge& e) { return e.visits == 0; };
  EXPECT_EQ(SelectPucb(t, t.node(0), 1.4, skip_unvisited), 1);
  EXPECT_EQ(SelectPucb(t, t.node(0), 1.4, [](const TreeEdge&) { return true; }), -1);
}

TEST(TreeTest, PucbTiesGoToTheLargerTieHashWhateverTheEdgeOrder) {
  // Four identical edges: their `tie` decides, not their position.
  SearchTree t = Star({1, 1, 1, 1}, {1.0, 1.0, 1.0, 1.0});
  const uint64_t ties[] = {7, 99, 3, 42};
  for (size_t i = 0; i < 4; ++i) t.node(0).edges[i].tie = ties[i];
  EXPECT_EQ(SelectPucb(t, t.node(0), 1.4, nullptr), 1);
  std::reverse(t.node(0).edges.begin(), t.node(0).edges.end());
  EXPECT_EQ(t.node(0).edges[SelectPucb(t, t.node(0), 1.4, nullptr)].tie, 99u);
  // A skipped edge's tie does not count.
  EXPECT_EQ(t.node(0).edges[SelectPucb(t, t.node(0), 1.4, [](const TreeEdge& e) { return e.tie == 99; })].tie,
            42u);
}

TEST(TreeTest, QRuleMaxRanksByTheLargestBackedUpValue) {
  SearchTree t = Star({2, 2}, {1.0, 1.6});  // mean 0.5 and 0.8
  t.node(1).stats.value_max = 3.0;
  t.node(2).stats.value_max = 1.0;
  EXPECT_EQ(SelectPucb(t, t.node(0), 0.0, nullptr), 1);  // mean: 0.8 beats 0.5
  t.set_q_rule(SearchOptions::QRule::kMax);
  EXPECT_DOUBLE_EQ(t.EdgeQ(t.node(0).edges[0]), 3.0);
  EXPECT_EQ(SelectPucb(t, t.node(0), 0.0, nullptr), 0);  // max: 3 beats 1
  Rng rng(1);
  EXPECT_EQ(RolloutEdge(t, t.node(0), 0.0, 0.0, rng), 0);
  t.set_q_rule(SearchOptions::QRule::kMean);
  EXPECT_EQ(RolloutEdge(t, t.node(0), 0.0, 0.0, rng), 1);
}

TEST(TreeTest, UctTakesTheFirstOnTies) {
  SearchTree t = Star({1, 1, 1}, {1.0, 1.0, 1.0});
  EXPECT_EQ(SelectUct(t, t.node(0), 1.4), 0);
  t.node(0).edges[2].child = -1;
  t.node(0).edges[2].visits = 0;
  t.node(0).edges[2].prior = -2;
  TreeEdge e;
  e.prior = -3;
  t.node(0).edges.push_back(e);
  EXPECT_EQ(SelectUct(t, t.node(0), 1.4), 2);  // unvisited, earlier proposed first
  SearchTree empty;
  empty.Reset("");
  EXPECT_EQ(SelectUct(empty, empty.node(0), 1.4), -1);
}

TEST(TreeTest, RolloutPolicyIsEpsilonGreedyWithAVisitPenalty) {
  // Q 3 with 4 visits against Q 1 with 1 visit: with lambda 0.5 the first
  // scores 1, the second 0.5; with lambda 1 they are -1 and 0.
  SearchTree t = Star({4, 1}, {12.0, 1.0});
  Rng rng(3);
  EXPECT_EQ(RolloutEdge(t, t.node(0), 0.0, 0.5, rng), 0);
  EXPECT_EQ(RolloutEdge(t, t.node(0), 0.0, 1.0, rng), 1);
  // epsilon 1: always random, both edges come up.
  std::set<int> seen;
  for (int i = 0; i < 64; ++i) seen.insert(RolloutEdge(t, t.node(0), 1.0, 0.5, rng));
  EXPECT_EQ(seen.size(), 2u);
}

TEST(TreeTest, RolloutTiesGoToASeededRandomEdge) {
  SearchTree t;
  t.Reset("");
  for (int i = 0; i < 4; ++i) t.node(0).edges.push_back(TreeEdge{});  // a fresh state: all 0
  std::set<int> chosen;
  for (uint64_t seed = 1; seed <= 16; ++seed) {
    Rng a(seed), b(seed);
    int x = RolloutEdge(t, t.node(0), 0.0, 0.5, a);
    EXPECT_EQ(x, RolloutEdge(t, t.node(0), 0.0, 0.5, b));
    chosen.insert(x);
  }
  EXPECT_GT(chosen.size(), 1u);  // not always the first inserted
}

TEST(TreeTest, MeanBackupCountsStatesAndEdges) {
  SearchTree t = Star({0, 0}, {0, 0});
  t.node(1).edges.push_back(TreeEdge{});
  BackupMean(t, {{0, 0}, {1, 0}}, 3.0);
  BackupMean(t, {{0, 0}}, 1.0);
  EXPECT_EQ(t.node(0).stats.visits, 2);
  EXPECT_DOUBLE_EQ(t.node(0).Q(), 2.0);
  EXPECT_EQ(t.node(0).stats.value_max, 3.0);
  EXPECT_EQ(t.node(0).edges[0].visits, 2);
  EXPECT_EQ(t.node(0).edges[1].visits, 0);
  EXPECT_EQ(t.node(1).stats.visits, 1);
  EXPECT_EQ(t.node(1).edges[0].visits, 1);
}

TEST(TreeTest, SuffixMaxIsTheBestRewardFromEachStateOn) {
  SearchTree t;
  t.Reset("");
  for (double r : {1.0, 4.0, -1.0, 2.0}) {
    TreeNode n;
    n.reward = r;
    t.Add(n);
  }
  EXPECT_EQ(SuffixMax(t, {1, 2, 3, 4}), (std::vector<double>{4, 4, 2, 2}));
  EXPECT_EQ(SuffixMax(t, {3}), (std::vector<double>{-1}));
  EXPECT_TRUE(SuffixMax(t, {}).empty());
}

}  // namespace
}  // namespace regrapht::search
