#include "graph/merge.h"

#include <gtest/gtest.h>

#include "graph/graph_json.h"
#include "graph/test_util.h"

namespace regrapht {
namespace {

using testing_util::MakeTrajectory;

class MergeTest : public testing::Test {
 protected:
  void SetUp() override {
    auto tax = Taxonomy::Builtin();
    ASSERT_TRUE(tax.ok()) << tax.status().ToString();
    taxonomy_ = std::move(tax).value();
  }
  MergeReport Merge(const Trajectory& t) {
    auto r = MergeTrajectory(t, taxonomy_, &graph_);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? *r : MergeReport{};
  }
  NodeId Node(const char* technique) { return *graph_.FindTechnique(technique); }
  std::string Cases(const MergeReport& r) {
    std::string s;
    for (const auto& step : r.steps) s += MergeCaseName(step.merge_case);
    return s;
  }
  Taxonomy taxonomy_;
  Graph graph_;
};

TEST_F(MergeTest, CasesABC) {
  // First trajectory: every step creates a node (c).
  MergeReport r1 = Merge(MakeTrajectory(
      "k1", "seq1", {{"thread_mapping", "k1.1"}, {"shared_memory_tiling", "k1.2"}, {"loop_unrolling", "k1.3"}}));
  EXPECT_EQ(Cases(r1), "ccc");
  EXPECT_EQ(r1.nodes_added, 3u);
  EXPECT_EQ(r1.edges_added, 3u);
  EXPECT_EQ(graph_.node(Node("thread_mapping")).name, "Thread mapping (parallelization)");
  EXPECT_FALSE(graph_.node(Node("thread_mapping")).description.empty());

  // Second: (a) existing edge init->thread_mapping, (b) unrolling exists but
  // not after thread_mapping, (b) shared memory after unrolling.
  MergeReport r2 = Merge(MakeTrajectory(
      "k2", "seq2", {{"thread_mapping", "k2.1"}, {"loop_unrolling", "k2.2"}, {"shared_memory_tiling", "k2.3"}}));
  EXPECT_EQ(Cases(r2), "abb");
  EXPECT_EQ(r2.nodes_added, 0u);
  EXPECT_EQ(r2.edges_added, 2u);
  EXPECT_EQ(r2.examples_added, 3u);

  EdgeId first = *graph_.FindEdge(kInitNode, Node("thread_mapping"));
  ASSERT_EQ(graph_.edge(first).examples.size(), 2u);
  EXPECT_EQ(graph_.edge(first).examples[1].kernel, "k2");
  EXPECT_EQ(graph_.edge(first).examples[1].before, "seq2");
  EXPECT_EQ(graph_.edge(first).examples[1].after, "k2.1");
  // before is the previous step's code, after this step's.
  EdgeId back = *graph_.FindEdge(Node("loop_unrolling"), Node("shared_memory_tiling"));
  EXPECT_EQ(graph_.edge(back).examples[0].before, "k2.2");
  EXPECT_EQ(graph_.edge(back).examples[0].after, "k2.3");
  EXPECT_EQ(graph_.edge(back).examples[0].method, "shared_memory_tiling");
  EXPECT_EQ(graph_.edge(back).examples[0].think, "think about shared_memory_tiling");
  // Every edge is in the edge list and in both endpoints' lists.
  EXPECT_EQ(graph_.num_edges(), 5u);
  for (const Edge& e : graph_.edges()) {
    const auto& out = graph_.node(e.from).out;
    const auto& in = graph_.node(e.to).in;
    EXPECT_NE(std::find(out.begin(), out.end(), e.id), out.end());
    EXPECT_NE(std::find(in.begin(), in.end(), e.id), in.end());
  }
}

TEST_F(MergeTest, CyclesAndSelfLoops) {
  MergeReport r = Merge(MakeTrajectory("k", "s0",
                                       {{"thread_mapping", "s1"},
                                        {"shared_memory_tiling", "s2"},
                                        {"shared_memory_tiling", "s3"},  // re-applied: self-loop
                                        {"thread_mapping", "s4"},        // back-edge: cycle
                                        {"shared_memory_tiling", "s5"}}));
  EXPECT_EQ(Cases(r), "ccbba");
  NodeId tm = Node("thread_mapping"), smem = Node("shared_memory_tiling");
  ASSERT_TRUE(graph_.FindEdge(smem, smem));
  ASSERT_TRUE(graph_.FindEdge(smem, tm));
  EdgeId forward = *graph_.FindEdge(tm, smem);
  ASSERT_EQ(graph_.edge(forward).examples.size(), 2u);
  EXPECT_EQ(graph_.edge(forward).examples[1].before, "s4");
  EXPECT_EQ(graph_.num_nodes(), 3u);
  EXPECT_EQ(graph_.num_edges(), 4u);
}

TEST_F(MergeTest, MergingTheSameTrajectoryTwiceAddsNothing) {
  Trajectory t = MakeTrajectory("k", "s0",
                                {{"thread_mapping", "s1"}, {"memory_coalescing", "s2"},
                                 {"memory_coalescing", "s3"}, {"thread_mapping", "s4"}});
  Merge(t);
  std::string before = SerializeGraph(graph_);
  MergeReport again = Merge(t);
  EXPECT_EQ(Cases(again), "aaaa");
  EXPECT_EQ(again.examples_added, 0u);
  EXPECT_EQ(again.examples_duplicate, 4u);
  for (const auto& s : again.steps) EXPECT_TRUE(s.duplicate);
  EXPECT_EQ(SerializeGraph(graph_), before);

  // The same steps from another kernel are new examples.
  t.kernel_id = "k_other";
  EXPECT_EQ(Merge(t).examples_added, 4u);
}

TEST_F(MergeTest, TechniquesOutsideTheTaxonomyAreFlaggedAndReused) {
  Trajectory t = MakeTrajectory("k", "s0", {{"thread_mapping", "s1"}, {"", "s2"}});
  t.steps[1].method = "  Bit   packing ";
  Merge(t);
  auto bits = graph_.FindNode("Bit packing");
  ASSERT_TRUE(bits);
  EXPECT_TRUE(graph_.node(*bits).needs_review);
  EXPECT_EQ(graph_.node(*bits).technique, "");
  // Spelled differently, the same unreviewed technique.
  Trajectory u = MakeTrajectory("u", "u0", {{"", "u1"}});
  u.steps[0].method = "bit-packing";
  EXPECT_EQ(Cases(Merge(u)), "b");
  EXPECT_EQ(graph_.num_nodes(), 3u);
}

TEST_F(MergeTest, BadTrajectoriesLeaveTheGraphUnchanged) {
  Merge(MakeTrajectory("k", "s0", {{"thread_mapping", "s1"}}));
  std::string before = SerializeGraph(graph_);
  auto unknown = MergeTrajectory(
      MakeTrajectory("b", "b0", {{"loop_unrolling", "b1"}, {"warp_magic", "b2"}}), taxonomy_, &graph_);
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().message(),
            "b: steps[1]: technique \"warp_magic\" is not in the taxonomy");
  auto empty = MergeTrajectory(MakeTrajectory("b", "b0", {{"loop_unrolling", " "}}), taxonomy_, &graph_);
  EXPECT_EQ(empty.status().message(), "b: steps[0]: code is empty");
  Trajectory init = MakeTrajectory("b", "b0", {{"", "b1"}});
  init.steps[0].method = "Init State";
  EXPECT_EQ(MergeTrajectory(init, taxonomy_, &graph_).status().message(),
            "b: steps[0]: method \"Init State\" names the init state");
  EXPECT_EQ(SerializeGraph(graph_), before);

  // A graph imported from the official format has nodes without ids.
  Graph official;
  ASSERT_TRUE(official.AddNode({"Loop unrolling", "", "", false}).ok());
  auto clash = MergeTrajectory(MakeTrajectory("c", "c0", {{"loop_unrolling", "c1"}}), taxonomy_,
                               &official);
  EXPECT_EQ(clash.status().message(),
            "c: steps[0]: a node named \"Loop unrolling\" exists without technique id "
            "\"loop_unrolling\" (from an official-format graph?)");
}

}  // namespace
}  // namespace regrapht
