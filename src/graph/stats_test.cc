#include "graph/stats.h"

#include <gtest/gtest.h>

#include "graph/test_util.h"

namespace regrapht {
namespace {

// n technique nodes, edges from the init node to each, and `edges` between them.
Graph NumberedGraph(size_t n, const std::vector<std::pair<NodeId, NodeId>>& edges) {
  Graph g;
  for (size_t i = 1; i <= n; ++i) {
    NodeSpec spec;
    spec.name = "t" + std::to_string(i);
    EXPECT_TRUE(g.AddNode(spec).ok());
    EXPECT_TRUE(g.AddEdge(kInitNode, static_cast<NodeId>(i)).ok());
  }
  for (auto [a, b] : edges) EXPECT_TRUE(g.AddEdge(a, b).ok());
  return g;
}

TEST(StatsTest, CyclesOfACompleteGraph) {
  // Every ordered pair of 4 nodes: C(4,2) + 2 C(4,3) + 6 = 20 elementary cycles.
  std::vector<std::pair<NodeId, NodeId>> edges;
  for (NodeId a = 1; a <= 4; ++a) {
    for (NodeId b = 1; b <= 4; ++b) {
      if (a != b) edges.push_back({a, b});
    }
  }
  GraphStats st = ComputeStats(NumberedGraph(4, edges), 3);
  EXPECT_EQ(st.cycles, 20u);
  EXPECT_FALSE(st.cycles_capped);
  EXPECT_EQ(st.cyclic_components, 1u);
}

TEST(StatsTest, LongPathsAndCyclesAreLinearNotRecursive) {
  // A path of 200000 nodes and the same closed into one cycle: a recursive
  // Tarjan or Johnson overflows the stack here; a quadratic one takes hours.
  const size_t n = 200000;
  std::vector<std::pair<NodeId, NodeId>> path;
  for (NodeId v = 1; v < n; ++v) path.push_back({v, v + 1});
  GraphStats open = ComputeStats(NumberedGraph(n, path), 3);
  EXPECT_EQ(open.cycles, 0u);
  EXPECT_EQ(open.largest_component, 1u);
  path.push_back({static_cast<NodeId>(n), 1});
  GraphStats closed = ComputeStats(NumberedGraph(n, path), 3);
  EXPECT_EQ(closed.cycles, 1u);
  EXPECT_FALSE(closed.cycles_capped);
  EXPECT_EQ(closed.largest_component, n);
}

TEST(StatsTest, SmallGraph) {
  Graph g = testing_util::SmallGraph();
  GraphStats st = ComputeStats(g, 3);
  EXPECT_EQ(st.nodes, 5u);
  EXPECT_EQ(st.technique_nodes, 4u);
  EXPECT_EQ(st.review_nodes, 1u);
  EXPECT_EQ(st.edges, 6u);
  EXPECT_EQ(st.examples, 7u);
  EXPECT_EQ(st.self_loops, 1u);
  EXPECT_EQ(st.unreachable_nodes, 0u);
  EXPECT_EQ(st.examples_per_edge.min, 1);
  EXPECT_EQ(st.examples_per_edge.median, 1);
  EXPECT_EQ(st.examples_per_edge.max, 2);
  EXPECT_EQ(st.in_degree.median, 1);
  EXPECT_EQ(st.in_degree.max, 2);
  EXPECT_EQ(st.out_degree.min, 0);
  EXPECT_EQ(st.components, 4u);         // {0} {1,2} {3} {4}
  EXPECT_EQ(st.cyclic_components, 1u);  // {1,2}
  EXPECT_EQ(st.largest_component, 2u);
  EXPECT_EQ(st.cycles, 2u);  // 2->2 and 1->2->1
  EXPECT_FALSE(st.cycles_capped);
  EXPECT_EQ(st.with_record, 1u);
  EXPECT_EQ(st.compiled, 1u);
  EXPECT_EQ(st.correct, 1u);
  EXPECT_EQ(st.with_speedup, 1u);
  ASSERT_TRUE(st.speedup);
  EXPECT_EQ(st.speedup->median, 12.5);
  EXPECT_DOUBLE_EQ(st.fraction_compiled, 1.0 / 7);
  ASSERT_EQ(st.top_transitions.size(), 3u);
  EXPECT_EQ(st.top_transitions[0].edge, 0u);
  EXPECT_EQ(st.top_transitions[0].examples, 2u);
  EXPECT_EQ(st.top_transitions[1].edge, 1u);  // ties keep edge order

  EXPECT_EQ(testing_util::CheckGolden("stats_small.txt", FormatStats(st, g)), "");
  OrderedJson j = StatsToJson(st, g);
  EXPECT_EQ(j["cycles"], 2);
  EXPECT_EQ(j["verification"]["correct"], 1);
  EXPECT_EQ(j["verification"]["correct_emulated"], 0);
  EXPECT_EQ(j["top_transitions"][0]["to"], "Thread mapping (parallelization)");

  // A correct record from the CPU emulator is counted as such.
  Graph g2 = g;
  ASSERT_GT(g2.num_edges(), 0u);
  Example x = g.edge(0).examples[0];
  ASSERT_TRUE(x.verification);
  x.verification->verifier = "regrapht 0.1.0 verify --emulate sm_90";
  x.after += " // emulated";
  ASSERT_TRUE(g2.AddExample(0, x));
  GraphStats st2 = ComputeStats(g2);
  EXPECT_EQ(st2.correct, 2u);
  EXPECT_EQ(st2.correct_emulated, 1u);
  EXPECT_NE(FormatStats(st2, g2).find("1 of them in the CPU emulator only (not on a GPU)"), std::string::npos)
      << FormatStats(st2, g2);
}

TEST(StatsTest, CountsElementaryCyclesOfACompleteGraph) {
  // Four nodes, every edge including self-loops: sum over k of C(4,k)(k-1)!
  // = 6 + 8 + 6 = 20 cycles of length >= 2, plus 4 self-loops.
  Graph g;
  for (int i = 1; i <= 4; ++i) ASSERT_TRUE(g.AddNode({"n" + std::to_string(i), "", "", false}).ok());
  ASSERT_TRUE(g.AddEdge(kInitNode, 1).ok());
  for (NodeId a = 1; a <= 4; ++a) {
    for (NodeId b = 1; b <= 4; ++b) ASSERT_TRUE(g.AddEdge(a, b).ok());
  }
  GraphStats st = ComputeStats(g);
  EXPECT_EQ(st.cycles, 24u);
  EXPECT_EQ(st.self_loops, 4u);
  EXPECT_EQ(st.components, 2u);
  EXPECT_EQ(st.largest_component, 4u);
}

TEST(StatsTest, EmptyGraphAndUnreachableNodes) {
  Graph g;
  GraphStats empty = ComputeStats(g);
  EXPECT_EQ(empty.edges, 0u);
  EXPECT_EQ(empty.cycles, 0u);
  EXPECT_FALSE(empty.speedup);
  ASSERT_TRUE(g.AddNode({"island", "", "", false}).ok());
  EXPECT_EQ(ComputeStats(g).unreachable_nodes, 1u);
  EXPECT_EQ(SummarizeCounts({3, 1, 2, 10}).median, 2.5);
}

}  // namespace
}  // namespace regrapht
