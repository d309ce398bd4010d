#include "regrapht/graph.h"

#include <gtest/gtest.h>

#include "graph/test_util.h"

namespace regrapht {
namespace {

TEST(GraphTest, StartsWithTheInitNode) {
  Graph g;
  ASSERT_EQ(g.num_nodes(), 1u);
  EXPECT_EQ(g.node(kInitNode).name, "init state");
  EXPECT_EQ(g.FindNode("init state"), kInitNode);
  EXPECT_EQ(g.num_edges(), 0u);
  EXPECT_EQ(g.num_examples(), 0u);
}

TEST(GraphTest, AddsNodesAndFindsThemByNameAndTechnique) {
  Graph g;
  auto a = g.AddNode({"Loop unrolling", "loop_unrolling", "Unroll.", false});
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(*a, 1u);
  EXPECT_EQ(g.FindNode("Loop unrolling"), 1u);
  EXPECT_EQ(g.FindTechnique("loop_unrolling"), 1u);
  EXPECT_EQ(g.FindTechnique(""), std::nullopt);
  EXPECT_EQ(g.FindNode("loop unrolling"), std::nullopt);  // exact names

  auto dup_name = g.AddNode({"Loop unrolling", "other", "", false});
  ASSERT_FALSE(dup_name.ok());
  EXPECT_EQ(dup_name.status().message(), "duplicate node name \"Loop unrolling\"");
  auto dup_tech = g.AddNode({"Unrolling", "loop_unrolling", "", false});
  EXPECT_EQ(dup_tech.status().message(),
            "duplicate technique \"loop_unrolling\" (node \"Loop unrolling\")");
  EXPECT_EQ(g.AddNode({"", "", "", false}).status().message(), "node name is empty");
  // Several unreviewed nodes may have no technique id.
  EXPECT_TRUE(g.AddNode({"Bit packing", "", "", true}).ok());
  EXPECT_TRUE(g.AddNode({"Morton order", "", "", true}).ok());
}

TEST(GraphTest, EdgesAllowCyclesAndSelfLoopsButNotDuplicates) {
  Graph g;
  NodeId a = *g.AddNode({"A", "a", "", false});
  NodeId b = *g.AddNode({"B", "b", "", false});
  EdgeId e0 = *g.AddEdge(kInitNode, a);
  EdgeId e1 = *g.AddEdge(a, b);
  EdgeId e2 = *g.AddEdge(b, a);  // cycle
  EdgeId e3 = *g.AddEdge(b, b);  // self-loop
  EXPECT_EQ(g.FindEdge(b, b), e3);
  EXPECT_EQ(g.FindEdge(a, kInitNode), std::nullopt);
  EXPECT_EQ(g.Successors(b), (std::vector<NodeId>{a, b}));
  EXPECT_EQ(g.node(a).in, (std::vector<EdgeId>{e0, e2}));
  EXPECT_EQ(g.node(a).out, (std::vector<EdgeId>{e1}));
  EXPECT_EQ(g.node(b).out, (std::vector<EdgeId>{e2, e3}));

  EXPECT_EQ(g.AddEdge(a, b).status().message(), "duplicate edge 1->2");
  EXPECT_EQ(g.AddEdge(a, kInitNode).status().message(),
            "edge 1->0: no edge may enter the init node");
  EXPECT_EQ(g.AddEdge(a, 9).status().message(), "edge 1->9: node out of range (graph has 3 nodes)");
}

TEST(GraphTest, ExamplesAreDeduplicatedByKernelBeforeAndAfter) {
  Graph g;
  NodeId a = *g.AddNode({"A", "a", "", false});
  EdgeId e = *g.AddEdge(kInitNode, a);
  Example x;
  x.kernel = "k";
  x.before = "b";
  x.after = "c";
  EXPECT_TRUE(g.AddExample(e, x));
  x.think = "different words, same step";
  EXPECT_FALSE(g.AddExample(e, x));
  x.kernel = "k2";
  EXPECT_TRUE(g.AddExample(e, x));
  EXPECT_EQ(g.num_examples(), 2u);
  EXPECT_EQ(g.edge(e).examples.size(), 2u);
}

TEST(GraphTest, SmallGraphFixture) {
  Graph g = testing_util::SmallGraph();
  EXPECT_EQ(g.num_nodes(), 5u);
  EXPECT_EQ(g.num_edges(), 6u);
  EXPECT_EQ(g.num_examples(), 7u);
}

}  // namespace
}  // namespace regrapht
