#include "core/strings.h"

#include <gtest/gtest.h>

namespace regrapht {
namespace {

TEST(StringsTest, SplitJoinTrim) {
  EXPECT_EQ(Split("a,b,,c", ','), (std::vector<std::string>{"a", "b", "", "c"}));
  EXPECT_EQ(Join({"x", "y"}, "-"), "x-y");
  EXPECT_EQ(Trim("  hi \n"), "hi");
  EXPECT_EQ(SplitLines("a\r\nb\n"), (std::vector<std::string>{"a", "b"}));
}

TEST(StringsTest, ParseNumbers) {
  EXPECT_EQ(ParseInt(" 42 "), 42);
  EXPECT_EQ(ParseInt("4x"), std::nullopt);
  EXPECT_EQ(ParseInt(""), std::nullopt);
  EXPECT_DOUBLE_EQ(*ParseDouble("1e-3"), 1e-3);
  EXPECT_EQ(ParseDouble("nope"), std::nullopt);
}

TEST(StringsTest, FirstLineCutToFit) {
  EXPECT_EQ(FirstLine("rule x: why\nmore", 100), "rule x: why");
  EXPECT_EQ(FirstLine("crlf\r\nnext", 100), "crlf");
  EXPECT_EQ(FirstLine(std::string(150, 'x'), 100).size(), 100u);
  EXPECT_EQ(FirstLine(std::string(150, 'x'), 100).substr(97), "...");
  EXPECT_EQ(FirstLine(std::string(100, 'x'), 100), std::string(100, 'x'));
  EXPECT_EQ(FirstLine("", 100), "");
  EXPECT_EQ(FirstLine("\nsecond", 100), "");
}

TEST(StringsTest, TruncateMiddleKeepsHeadAndTail) {
  std::string s(1000, 'a');
  s += "END";
  std::string t = TruncateMiddle(s, 100);
  EXPECT_LT(t.size(), 160u);
  EXPECT_NE(t.find("bytes cut"), std::string::npos);
  EXPECT_TRUE(EndsWith(t, "END"));
}

TEST(StringsTest, ShellQuote) {
  EXPECT_EQ(ShellQuote("abc/d.cu"), "abc/d.cu");
  EXPECT_EQ(ShellQuote("a b"), "'a b'");
  EXPECT_EQ(ShellQuote("it's"), "'it'\\''s'");
}

TEST(StringsTest, PluralCountsOneAsSingular) {
  EXPECT_EQ(Plural(1, "generation"), "1 generation");
  EXPECT_EQ(Plural(0, "generation"), "0 generations");
  EXPECT_EQ(Plural(4, "experiment"), "4 experiments");
}

TEST(StringsTest, LineOfOffset) {
  EXPECT_EQ(LineOfOffset("a\nb\nc", 0), 1);
  EXPECT_EQ(LineOfOffset("a\nb\nc", 2), 2);
  EXPECT_EQ(LineOfOffset("a\nb\nc", 4), 3);
}

}  // namespace
}  // namespace regrapht
