#include "core/html.h"

#include <gtest/gtest.h>

namespace regrapht {
namespace {

TEST(HtmlTest, EscapesMarkup) {
  EXPECT_EQ(HtmlEscape("a<b & \"c\" 'd'>"), "a&lt;b &amp; &quot;c&quot; &#39;d&#39;&gt;");
}

TEST(HtmlTest, PageIsSelfContained) {
  std::string page = HtmlPage("t <1>", "<p>x</p>");
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(page.find("<title>t &lt;1&gt;</title>"), std::string::npos);
  EXPECT_NE(page.find("<style>"), std::string::npos);
  EXPECT_EQ(page.find("<script"), std::string::npos);
  EXPECT_EQ(page.find("http://"), std::string::npos);
  EXPECT_EQ(page.find("https://"), std::string::npos);
}

TEST(HtmlTest, UnifiedDiffOfEqualTextsIsEmpty) { EXPECT_EQ(UnifiedDiff("a\nb\n", "a\nb\n"), ""); }

TEST(HtmlTest, UnifiedDiffMarksChangedLinesWithContext) {
  std::string before = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n";
  std::string after = "1\n2\n3\n4\nfive\n6\n7\n8\n9\n10\n11\n";
  EXPECT_EQ(UnifiedDiff(before, after, 1),
            "@@ -4,3 +4,3 @@\n 4\n-5\n+five\n 6\n"
            "@@ -10,1 +10,2 @@\n 10\n+11\n");
}

TEST(HtmlTest, UnifiedDiffFromNothing) {
  EXPECT_EQ(UnifiedDiff("", "x\ny\n"), "@@ -0,0 +1,2 @@\n+x\n+y\n");
}

TEST(HtmlTest, DiffHtmlMarksLines) {
  std::string h = DiffHtml("@@ -1,1 +1,1 @@\n-a<b\n+c\n");
  EXPECT_NE(h.find("<span class=\"del\">-a&lt;b</span>"), std::string::npos);
  EXPECT_NE(h.find("<span class=\"add\">+c</span>"), std::string::npos);
  EXPECT_NE(h.find("<span class=\"hunk\">"), std::string::npos);
}

TEST(HtmlTest, StripPlotHasOneDotPerValueAndABoxPerSeries) {
  std::string svg = SvgStripPlot({{"a", {0.5, 2, 8}}, {"b", {}}}, "speedups", "speedup");
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  size_t dots = 0;
  for (size_t p = 0; (p = svg.find("class=\"dot\"", p)) != std::string::npos; ++p) ++dots;
  EXPECT_EQ(dots, 3u);
  EXPECT_NE(svg.find("class=\"box\""), std::string::npos);
  EXPECT_NE(svg.find("no timed values"), std::string::npos);
  EXPECT_NE(svg.find(">1x<"), std::string::npos);
}

TEST(HtmlTest, LineChartDrawsEachSeries) {
  std::string svg =
      SvgLineChart({{"m", {{1, 0.5}, {2, 0.7}}}, {"n", {{1, 0.2}}}}, "t", "budget", "pass@1");
  size_t lines = 0;
  for (size_t p = 0; (p = svg.find("class=\"series\"", p)) != std::string::npos; ++p) ++lines;
  EXPECT_EQ(lines, 2u);
  EXPECT_NE(svg.find(">budget<"), std::string::npos);
}

}  // namespace
}  // namespace regrapht
