// Output shaping: prefill and grammar construction, and that the extractor
// takes the code out of shaped replies.
#include "llm/shape.h"

#include <gtest/gtest.h>

#include "llm/extract.h"

namespace regrapht::llm {
namespace {

CodeShape Saxpy() {
  CodeShape s;
  s.signature = "void  saxpy(int n, float a, const float* x, float* y)";
  s.max_tokens = 512;
  return s;
}

TEST(ShapeTest, FunctionHeadIsTheSignatureUpToItsParenthesis) {
  EXPECT_EQ(FunctionHead("void  saxpy(int n, float a)"), "void saxpy(");
  EXPECT_EQ(FunctionHead("__global__ void\n k(int* p)"), "__global__ void k(");
  EXPECT_EQ(FunctionHead(" f"), "f(");
}

TEST(ShapeTest, GbnfLiteralEscapes) {
  EXPECT_EQ(GbnfLiteral("a\"b\\c\nd\te"), "\"a\\\"b\\\\c\\nd\\te\"");
  EXPECT_EQ(GbnfLiteral(std::string("\x01", 1)), "\"\\x01\"");
}

TEST(ShapeTest, PrefillOpensTheFenceWithTheIncludes) {
  EXPECT_EQ(CodePrefill(Saxpy()), "```cuda\n#include <cuda_runtime.h>\n");
  CodeShape with_kernel = Saxpy();
  with_kernel.opener = "\n__global__ void saxpy_kernel(";
  EXPECT_EQ(CodePrefill(with_kernel),
            "```cuda\n#include <cuda_runtime.h>\n\n__global__ void saxpy_kernel(");
}

TEST(ShapeTest, GrammarRequiresTheHeadAndEndsWithTheFence) {
  ShapeOptions o;
  o.prefill = o.grammar = true;
  std::string g = CodeGrammar(Saxpy(), o, /*with_prefill=*/false);
  EXPECT_EQ(g,
            "root ::= line{0,16} head-line line{0,16} \"```\"\n"
            "line ::= text \"\\n\"\n"
            "head-line ::= (\"__host__ \" | \"static \" | \"inline \" | \"extern \\\"C\\\" \")? "
            "\"void saxpy(\" text \"\\n\"\n"
            "text ::= [^`\\n]{0,80}\n");
  o.max_lines = 3;
  o.max_line_chars = 20;
  g = CodeGrammar(Saxpy(), o, /*with_prefill=*/true);
  EXPECT_EQ(g.rfind("root ::= \"```cuda\\n#include <cuda_runtime.h>\\n\" line{0,3} head-line", 0),
            0u)
      << g;
  EXPECT_NE(g.find("[^`\\n]{0,20}"), std::string::npos);
  // Small max_tokens still leave room for a function.
  CodeShape small = Saxpy();
  small.max_tokens = 16;
  o.max_lines = 0;
  EXPECT_NE(CodeGrammar(small, o, false).find("line{0,8}"), std::string::npos);
}

TEST(ShapeTest, OptionsPickThePieces) {
  ShapeOptions o;
  EXPECT_TRUE(MakeOutputShape(Saxpy(), o).empty());  // library default: off
  o.prefill = true;
  OutputShape s = MakeOutputShape(Saxpy(), o);
  EXPECT_EQ(s.prefill, CodePrefill(Saxpy()));
  EXPECT_TRUE(s.grammar.empty());
  EXPECT_EQ(s.close, "\n```");  // no grammar: stop after the closing fence
  o.stop_at_fence = false;
  EXPECT_TRUE(MakeOutputShape(Saxpy(), o).close.empty());
  o.grammar = true;
  s = MakeOutputShape(Saxpy(), o);
  EXPECT_EQ(s.grammar, CodeGrammar(Saxpy(), o, false));
  EXPECT_TRUE(s.close.empty());  // the grammar ends at the fence
  o.prefill = false;             // an endpoint: the grammar covers the opening too
  s = MakeOutputShape(Saxpy(), o);
  EXPECT_TRUE(s.prefill.empty());
  EXPECT_EQ(s.grammar, CodeGrammar(Saxpy(), o, true));
}

// What the backends return for shaped requests: the prefill, the model's
// continuation and (grammar or close) the closing fence.
TEST(ShapeTest, ExtractorTakesCodeFromShapedReplies) {
  const std::string prefill = CodePrefill(Saxpy());
  const std::string body =
      "__global__ void k(int n, float a, const float* x, float* y) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (i < n) y[i] = a * x[i] + y[i];\n"
      "}\n"
      "void saxpy(int n, float a, const float* x, float* y) {\n"
      "  k<<<(n + 255) / 256, 256>>>(n, a, x, y);\n"
      "}\n";
  ExtractOptions eo{.function_name = "saxpy"};
  for (const std::string& reply :
       {prefill + body + "```", prefill + body + "```\nThis kernel is fast."}) {
    Extraction ex = ExtractCode(reply, eo);
    ASSERT_TRUE(ex.found()) << ex.reason;
    EXPECT_EQ(ex.format, ExtractFormat::kFenced);
    EXPECT_EQ(ex.language, "cuda");
    EXPECT_NE(ex.code.find("#include <cuda_runtime.h>"), std::string::npos);
    EXPECT_NE(ex.code.find("void saxpy("), std::string::npos);
    EXPECT_EQ(ex.code.find("```"), std::string::npos);
  }
  // Cut off by max_tokens inside the block: an unterminated fence whose
  // braces do not balance is not code.
  Extraction cut = ExtractCode(prefill + "void saxpy(int n) {\n  for (int i = 0;", eo);
  EXPECT_FALSE(cut.found());
}

}  // namespace
}  // namespace regrapht::llm
