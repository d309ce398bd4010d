#include "graph/dot.h"

#include <gtest/gtest.h>

#include "core/fake_command_runner.h"
#include "graph/test_util.h"

namespace regrapht {
namespace {

TEST(DotTest, MatchesGolden) {
  Graph g = testing_util::SmallGraph();
  std::string dot = ToDot(g);
  EXPECT_EQ(testing_util::CheckGolden("graph_small.dot", dot), "");
  EXPECT_EQ(ToDot(g), dot);  // deterministic
}

TEST(DotTest, EscapesQuotes) {
  Graph g;
  ASSERT_TRUE(g.AddNode({"say \"hi\" \\ now", "", "", true}).ok());
  EXPECT_NE(ToDot(g).find("label=\"say \\\"hi\\\" \\\\ now\\n(needs review)\""), std::string::npos)
      << ToDot(g);
}

TEST(DotTest, SvgRunsDotThroughTheRunner) {
  FakeCommandRunner runner;
  runner.SetHandler([](const CommandSpec& spec) -> Result<CommandResult> {
    CommandResult r;
    r.exit_code = 0;
    r.stdout_text = "<svg>" + std::to_string(spec.stdin_data.size()) + "</svg>";
    return r;
  });
  auto svg = RenderSvg("digraph{}", &runner);
  ASSERT_TRUE(svg.ok()) << svg.status().ToString();
  EXPECT_EQ(*svg, "<svg>9</svg>");
  ASSERT_EQ(runner.commands().size(), 1u);
  EXPECT_EQ(runner.commands()[0].argv, (std::vector<std::string>{"dot", "-Tsvg"}));
  EXPECT_EQ(runner.commands()[0].stdin_data, "digraph{}");

  runner.SetHandler([](const CommandSpec&) -> Result<CommandResult> {
    CommandResult r;
    r.exit_code = 1;
    r.stderr_text = "syntax error in line 1";
    return r;
  });
  EXPECT_EQ(RenderSvg("x", &runner).status().message(),
            "dot -Tsvg failed (exit 1): syntax error in line 1");
  runner.SetHandler([](const CommandSpec&) -> Result<CommandResult> {
    return Status::NotFound("dot: not found on PATH");
  });
  auto missing = RenderSvg("x", &runner);
  EXPECT_EQ(missing.status().code(), Status::Code::kFailedPrecondition);
}

// SmallGraph: init -> thread mapping has 2 examples, every other edge 1.
TEST(DotTest, PruneKeepsBusyTransitionsAndTheirNodes) {
  Graph g = testing_util::SmallGraph();
  auto busy = PruneGraph(g, {2, 0});
  ASSERT_TRUE(busy.ok()) << busy.status().ToString();
  EXPECT_EQ(busy->num_edges(), 1u);
  EXPECT_EQ(busy->num_nodes(), 2u);  // init and thread mapping
  EXPECT_EQ(busy->num_examples(), 2u);
  EXPECT_EQ(busy->node(1).technique, "thread_mapping");

  auto top = PruneGraph(g, {0, 2});  // the busiest edge, then the lowest id among ties
  ASSERT_TRUE(top.ok());
  ASSERT_EQ(top->num_edges(), 2u);
  EXPECT_EQ(top->edge(0).examples.size(), 2u);
  EXPECT_EQ(top->node(top->edge(1).to).technique, "shared_memory_tiling");

  auto all = PruneGraph(g, {});
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(ToDot(*all), ToDot(g));
}

TEST(DotTest, EdgeWidthGrowsWithExamples) {
  std::string dot = ToDot(testing_util::SmallGraph());
  EXPECT_NE(dot.find("n0 -> n1 [label=\"2\", penwidth=5.00"), std::string::npos) << dot;
  EXPECT_NE(dot.find("n1 -> n2 [label=\"1\", penwidth=3.71"), std::string::npos) << dot;
}

TEST(DotTest, PngRunsDotTpng) {
  FakeCommandRunner runner;
  runner.SetHandler([](const CommandSpec&) -> Result<CommandResult> {
    CommandResult r;
    r.exit_code = 0;
    r.stdout_text = std::string("\x89PNG\r\n\x1a\n\0", 9);
    return r;
  });
  auto png = RenderImage("digraph{}", "png", &runner);
  ASSERT_TRUE(png.ok());
  EXPECT_EQ(png->size(), 9u);
  // 144 dpi: a PNG's labels read at the size it opens at.
  EXPECT_EQ(runner.commands()[0].argv, (std::vector<std::string>{"dot", "-Tpng", "-Gdpi=144"}));
  EXPECT_EQ(RenderImage("digraph{}", "gif", &runner).status().code(), Status::Code::kInvalidArgument);
}

TEST(DotTest, APrunedDrawingSaysWhatItLeftOut) {
  Graph g;
  NodeId a = *g.AddNode({"tiling", "shared_memory_tiling", "", false});
  NodeId b = *g.AddNode({"unroll", "loop_unrolling", "", false});
  EdgeId busy = *g.AddEdge(kInitNode, a), quiet = *g.AddEdge(a, b);
  for (int i = 0; i < 3; ++i) {
    Example ex;
    ex.kernel = "k" + std::to_string(i);
    g.AddExample(busy, ex);
  }
  g.AddExample(quiet, Example{});
  PruneOptions o;
  o.top = 1;
  auto pruned = PruneGraph(g, o);
  ASSERT_TRUE(pruned.ok());
  std::string legend = LegendOfPruning(g, *pruned, o);
  EXPECT_EQ(legend,
            "Showing the 1 of 2 transitions with the most examples (at least 3 examples each; 3 of 4 examples), 1 "
            "of 2 techniques.\nLeft out: 1 transitions, 1 techniques. --top 0 draws them all (--min-examples N "
            "filters by count).");
  EXPECT_NE(ToDot(*pruned, legend).find("label=\"Showing the 1 of 2 transitions"), std::string::npos);
  EXPECT_EQ(LegendOfPruning(g, g, {}), "");  // nothing left out: no legend
  EXPECT_EQ(ToDot(g).find("label=\"Showing"), std::string::npos);
}

TEST(DotTest, DrawGraphWritesDotAndRefusesUnknownFormats) {
  Graph g = testing_util::SmallGraph();
  auto dot = DrawGraph(g, "dot", "", "g.json");
  ASSERT_TRUE(dot.ok()) << dot.status().ToString();
  EXPECT_EQ(*dot, ToDot(g));
  auto legend = DrawGraph(g, "dot", "Showing a part", "g.json");
  ASSERT_TRUE(legend.ok());
  EXPECT_EQ(*legend, ToDot(g, "Showing a part"));
  EXPECT_EQ(DrawGraph(g, "gif", "", "g.json").status().code(), Status::Code::kInvalidArgument);
}

}  // namespace
}  // namespace regrapht
