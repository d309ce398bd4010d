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
  EXPECT_EQ(runner.commands()[0].argv, (std::vector<std::string>{"dot", "-Tpng"}));
  EXPECT_EQ(RenderImage("digraph{}", "gif", &runner).status().code(), Status::Code::kInvalidArgument);
}

}  // namespace
}  // namespace regrapht
