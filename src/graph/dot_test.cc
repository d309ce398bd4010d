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

}  // namespace
}  // namespace regrapht
