#include "verify/build/pass_check.h"

#include <gtest/gtest.h>

namespace regrapht::verify {
namespace {

TEST(PassCheckTest, FindsConditionalDirectivesInEverySpelling) {
  EXPECT_FALSE(HasConditionalDirective("#include <cuda_runtime.h>\n#define N 4\nint x; // #if not\n"));
  EXPECT_FALSE(HasConditionalDirective("const char* s = \"\\n#if 1\\n\";\n"));
  EXPECT_FALSE(HasConditionalDirective("const char* r = R\"(\n#ifdef X\n)\";\n"));
  EXPECT_TRUE(HasConditionalDirective("#ifdef __CUDA_ARCH__\n#endif\n"));
  EXPECT_TRUE(HasConditionalDirective("  #  if defined(X)\n#endif\n"));
  EXPECT_TRUE(HasConditionalDirective("%:ifndef X\n%:endif\n"));
  EXPECT_TRUE(HasConditionalDirective("# /* a comment */ elif 1\n"));
  EXPECT_TRUE(HasConditionalDirective("#\\\nif 1\n#endif\n"));
}

TEST(PassCheckTest, SurvivingLinesFollowTheLineMarkers) {
  const char* ii =
      "# 0 \"candidate.cu\"\n"
      "# 1 \"/usr/include/stdio.h\" 1 3\n"
      "int printf(const char*, ...);\n"
      "# 2 \"candidate.cu\" 2\n"
      "\n"
      "int a = 1;\n"
      "\n"
      "\n"
      "# 9 \"candidate.cu\"\n"
      "int b = 2;\n";
  EXPECT_EQ(SurvivingLines(ii, "candidate.cu"), (std::set<int>{3, 9}));
  EXPECT_EQ(SurvivingLines(ii, "/some/dir/candidate.cu"), (std::set<int>{3, 9}));
  EXPECT_EQ(SurvivingLines(ii, "stdio.h"), (std::set<int>{1}));
}

TEST(PassCheckTest, NamesTheFirstLineOnWhichPassesDisagree) {
  std::vector<PassView> same = {{"nvcc's host pass", {1, 2, 5}}, {"the emulator's compilation", {1, 2, 5}}};
  EXPECT_EQ(FirstPassDifference(same), "");
  std::vector<PassView> differ = {{"nvcc's host pass", {1, 2, 7}},
                                  {"nvcc's device pass for compute_90", {1, 4, 7}},
                                  {"the emulator's compilation", {1, 2, 7}}};
  std::string d = FirstPassDifference(differ);
  EXPECT_EQ(d.rfind("line 2 is compiled in nvcc's host pass but not in nvcc's device pass for compute_90", 0), 0u)
      << d;
  EXPECT_EQ(ParsePassViews(FormatPassViews(differ)).size(), 3u);
  EXPECT_EQ(ParsePassViews(FormatPassViews(differ))[1].lines, (std::set<int>{1, 4, 7}));
}

}  // namespace
}  // namespace regrapht::verify
