// Output shaping: prefill and grammar construction, and that the extractor
// takes the code out of shaped replies.
#include "llm/shape.h"

#include <gtest/gtest.h>

#include "core/scanner.h"
#include "llm/extract.h"

namespace regrapht::llm {
namespace {

CodeShape Saxpy() {
  CodeShape s;
  s.signature = "void  saxpy(int n, float a, const float* x, float* y)";
  s.max_tokens = 512;
  return s;
}

TEST(ShapeTest, NormalizedSignatureHasSingleSpaces) {
  EXPECT_EQ(NormalizedSignature("void  saxpy(int n,\n  float a)"), "void saxpy(int n, float a)");
  EXPECT_EQ(NormalizedSignature(" __global__ void\tk(int* p) "), "__global__ void k(int* p)");
}

TEST(ShapeTest, OpenBracketsAreWhatTheCodeLeavesOpen) {
  EXPECT_EQ(OpenBrackets("```cuda\n#include <cuda_runtime.h>\n\n__global__ void k("), "(");
  EXPECT_EQ(OpenBrackets("void f() { int a[2] = {1, g(2"), "{{(");
  EXPECT_EQ(OpenBrackets("#define M (\nvoid f() {}"), "");  // directives do not count
  EXPECT_EQ(OpenBrackets("f(\")\", '(', /* ( */ 1"), "(");
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

// llama_backend_test checks the grammar's language with llama.cpp itself
// (CodeGrammarTakesWellFormedDefinitionsOnly); this checks its top rule.
TEST(ShapeTest, GrammarRequiresTheDefinitionLastAndEndsWithTheFence) {
  std::string g = CodeGrammar(Saxpy(), {}, /*with_prefill=*/false);
  EXPECT_EQ(g.substr(0, g.find('\n') + 1),
            "root ::= dir* (code nle)? qual* \"void saxpy(int n, float a, const float* x, float* y)\" "
            "ws \"{\" code \"}\" \"\\n```\"\n");
  CodeShape drop_in = Saxpy();
  drop_in.opener = "\n__global__ void saxpy_kernel(";
  g = CodeGrammar(drop_in, {}, /*with_prefill=*/true);
  EXPECT_EQ(g.rfind("root ::= \"```cuda\\n#include <cuda_runtime.h>\\n\\n__global__ void saxpy_kernel(\" "
                    "code \")\" (code nle)? qual* \"void saxpy(",
                    0),
            0u)
      << g;
  // The bound: max_tokens characters at one bracket level, or as given.
  EXPECT_NE(g.find("\ncode ::= e{0,512}\n"), std::string::npos) << g;
  ShapeOptions o;
  o.max_group_chars = 40;
  EXPECT_NE(CodeGrammar(drop_in, o, true).find("\ncode ::= e{0,40}\n"), std::string::npos);
  for (const char* rule : {"\ngrp ::= ", "\nstr ::= ", "\nbc ::= ", "\nlt ::= "}) {
    EXPECT_NE(g.find(rule), std::string::npos) << rule;
  }
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

// The wrap-up's best text, or "" when it has none.
std::string WrapUpFirst(const std::string& sig, const std::string& text, bool final) {
  std::vector<std::string> texts =
      WrapUpTexts(sig, "", text, final ? WrapUpStage::kClose : WrapUpStage::kHead);
  return texts.empty() ? "" : texts.front();
}

TEST(ShapeTest, WrapUpClosesWhatIsOpenAndStartsTheFunction) {
  const std::string sig = "void saxpy(int n, float a, const float* x, float* y)";
  const std::string head = "```cuda\n#include <cuda_runtime.h>\n\n__global__ void saxpy_kernel(int n) {\n";
  // Open brackets, innermost first, then the signature on a line of its own.
  EXPECT_EQ(WrapUpFirst(sig, head + "  if (n > 0) {\n    f(a[", false), "])}}\n" + sig + " {\n");
  // A literal, a comment or a directive left open is closed first.
  EXPECT_EQ(WrapUpFirst(sig, head + "  s = \"ab", false), "\"}\n" + sig + " {\n");
  EXPECT_EQ(WrapUpFirst(sig, head + "  c = '", false), "0'}\n" + sig + " {\n");
  EXPECT_EQ(WrapUpFirst(sig, head + "  /* note {", false), "*/}\n" + sig + " {\n");
  EXPECT_EQ(WrapUpFirst(sig, head + "  // note {", false), "\n}\n" + sig + " {\n");
  EXPECT_EQ(WrapUpFirst(sig, head + "}\n#define K (1", false), "\n" + sig + " {\n");
  EXPECT_EQ(WrapUpFirst(sig, head + "  k<<<1, (n", false), ")>>>}\n" + sig + " {\n");
  EXPECT_EQ(WrapUpFirst(sig, head + "}\n", false), sig + " {\n");
  const std::string kernel_head = "```cuda\n#include <cuda_runtime.h>\n\n__global__ void saxpy_kernel(int n";
  // A declaration left open at the top level is ended first (and, should
  // the grammar refuse that, not).
  EXPECT_EQ(WrapUpTexts(sig, "", kernel_head, WrapUpStage::kHead),
            (std::vector<std::string>{");\n" + sig + " {\n", ")\n" + sig + " {\n"}));
  EXPECT_EQ(WrapUpFirst(sig, head + "}\nint k = 2 // two\n", false), ";\n" + sig + " {\n");
  // Too late to begin the function: nothing.
  EXPECT_EQ(WrapUpFirst(sig, head + "  if (n) {", true), "");
  // Inside the function: nothing until the end, then close it and the block.
  const std::string in_function = head + "}\nvoid saxpy(int n, float a, const float* x, float* y) {\n  for (;;) {";
  EXPECT_EQ(WrapUpFirst(sig, in_function, false), "");
  EXPECT_EQ(WrapUpFirst(sig, in_function, true), "}}\n```");
  // The launch stage opens the kernel's launch in a body that has none, at
  // the body's top level; a body that launches gets nothing.
  EXPECT_EQ(WrapUpTexts(sig, "saxpy_kernel<<<", in_function, WrapUpStage::kLaunch),
            std::vector<std::string>{"}\n  saxpy_kernel<<<"});
  EXPECT_TRUE(WrapUpTexts(sig, "saxpy_kernel<<<", in_function + "}\n  k<<<1, 1>>>();", WrapUpStage::kLaunch).empty());
  EXPECT_TRUE(WrapUpTexts(sig, "", in_function, WrapUpStage::kLaunch).empty());
  EXPECT_TRUE(WrapUpTexts(sig, "saxpy_kernel<<<", head, WrapUpStage::kLaunch).empty());
  EXPECT_TRUE(WrapUpTexts(sig, "saxpy_kernel<<<", head, WrapUpStage::kNone).empty());
  // A token closing the body is replaced: by the launch's opening while the
  // body launches nothing (when one is required), else by "}" and the fence;
  // not while something else is open.
  EXPECT_EQ(BodyCloser(sig, "", in_function + "}"), "}\n```");
  EXPECT_EQ(BodyCloser(sig, "saxpy_kernel<<<", in_function + "}"), "\n  saxpy_kernel<<<");
  EXPECT_EQ(BodyCloser(sig, "saxpy_kernel<<<", in_function + "}\n  saxpy_kernel<<<1, 1>>>(n);"), "}\n```");
  EXPECT_EQ(BodyCloser(sig, "", in_function), "");
  EXPECT_EQ(BodyCloser(sig, "", in_function + "} s = \"x"), "");
  EXPECT_EQ(BodyCloser(sig, "", head), "");
  // A definition finished earlier does not count: the model went on after it.
  const std::string after = in_function + "}}\nint z = (1";
  EXPECT_EQ(WrapUpFirst(sig, after, false), ");\n" + sig + " {\n");
  // The "}" that closes the function (at the top level) ends the block.
  EXPECT_TRUE(EndsDefinition(sig, in_function + "}}"));
  EXPECT_FALSE(EndsDefinition(sig, in_function + "}"));
  EXPECT_FALSE(EndsDefinition(sig, head + "}"));
  EXPECT_FALSE(EndsDefinition(sig, after));
  // What it writes makes code the scanner takes, defining the function.
  const std::string text = head + "  if (n > 0) {\n    f(a[";
  const std::string wrapped = text + WrapUpFirst(sig, text, false) + "}";
  const std::string code = wrapped.substr(wrapped.find('\n') + 1);
  EXPECT_TRUE(scan::ScannedSource(code).problems().empty()) << code;
  EXPECT_TRUE(scan::DefinesFunction(code, "saxpy")) << code;
}

TEST(ShapeTest, WrapUpOnlyWithPrefillAndGrammar) {
  ShapeOptions o;
  o.prefill = o.grammar = true;
  OutputShape s = MakeOutputShape(Saxpy(), o);
  EXPECT_EQ(s.wrap_up, "void saxpy(int n, float a, const float* x, float* y)");
  EXPECT_EQ(s.wrap_up_tokens, 512 / 3);
  o.wrap_up_tokens = 100;
  EXPECT_EQ(MakeOutputShape(Saxpy(), o).wrap_up_tokens, 100);
  EXPECT_EQ(s.wrap_up_launch, "");  // no launch required
  CodeShape drop_in = Saxpy();
  drop_in.opener = "\n__global__ void saxpy_kernel(";
  drop_in.require_launch = true;
  EXPECT_EQ(MakeOutputShape(drop_in, o).wrap_up_launch, "saxpy_kernel<<<");
  o.wrap_up = false;
  EXPECT_TRUE(MakeOutputShape(Saxpy(), o).wrap_up.empty());
  o.wrap_up = true;
  o.grammar = false;
  EXPECT_TRUE(MakeOutputShape(Saxpy(), o).wrap_up.empty());
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
