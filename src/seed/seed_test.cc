// Tests of the rules' first step (seed.h): what the analysis accepts (and
// as which pattern), what it refuses (and why, by class), and the shape of
// the code it writes. Whether a seed computes the right thing is the
// harness's to say: seed_cli_test runs seeds through the CPU emulator, and
// docs/search.md has the table over both suites.
#include "seed/seed.h"

#include <gtest/gtest.h>

#include "seed/analyze.h"
#include "seed/ast.h"
#include "seed/codegen.h"

namespace regrapht::seed {
namespace {

// A problem whose spec has the function `name`, these arguments and,
// unless empty, this return type.
Problem MakeProblem(const std::string& source, const std::string& name,
                    const std::string& args_json, const std::string& returns = "") {
  Problem p;
  p.reference_source = source;
  const std::string spec =
      R"({"format": "regrapht-problem", "version": 1, "name": ")" + name + R"(", "function": ")" +
      name + R"(", )" + (returns.empty() ? "" : R"("returns": ")" + returns + R"(", )") +
      R"("args": )" + args_json +
      R"(, "tests": [{"sizes": {"n": 1}, "seed": 1}, {"sizes": {"n": 300}, "seed": 2}, {"sizes": {"n": 1000}, "seed": 3}], "timing": {"sizes": {"n": 4099}, "seed": 4}})";
  auto parsed = ParseProblemSpec(spec, "test.json");
  EXPECT_TRUE(parsed.ok()) << parsed.status().ToString();
  if (parsed.ok()) p.spec = *parsed;
  return p;
}

// The analysis of `function` in `source`: the plan's pattern, or
// "refused <category>: <message>".
std::string Analysed(const std::string& source, const std::string& function) {
  auto ast = ParseFile(source, "t.cpp");
  if (!ast.ok()) return "parse error: " + ast.status().ToString();
  const FunctionDef* f = ast->Find(function);
  if (!f) return "not found";
  Analysis a = Analyze(*ast, *f);
  if (!a.plan) return "refused " + a.refusal.category + ": " + a.refusal.message;
  return a.plan->pattern;
}

class SeedTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!Available()) GTEST_SKIP() << "built without libclang";
  }
};

TEST(SeedAvailability, WithoutTheFrontEndEverySeedSaysWhyAndWhatToInstall) {
  Problem p = MakeProblem("void f(int n, float* y) { for (int i = 0; i < n; ++i) y[i] = 0; }", "f",
                          R"([{"name": "n", "role": "size", "type": "int32"},
                              {"name": "y", "role": "output", "type": "float", "pass": "pointer", "length": "n"}])");
  Seed s = Parallelize(p);
  if (Available()) {
    EXPECT_TRUE(s.written) << s.reason;
  } else {
    EXPECT_FALSE(s.written);
    EXPECT_EQ(s.category, "unavailable");
    EXPECT_NE(s.reason.find("libclang-dev"), std::string::npos) << s.reason;
  }
}

TEST_F(SeedTest, TheFrontEndReadsOperatorsDeclarationsAndRanges) {
  const std::string src =
      "#include <vector>\n"
      "int g(const std::vector<int>& v, int k) {\n"
      "  int s = 0;\n"
      "  for (size_t i = 0; i < v.size(); ++i) s += v[i] * k;\n"
      "  return s;\n"
      "}\n";
  auto ast = ParseFile(src, "t.cpp");
  ASSERT_TRUE(ast.ok()) << ast.status().ToString();
  const FunctionDef* f = ast->Find("g");
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(f->params.size(), 2u);
  EXPECT_EQ(ast->decl(f->params[0]).type.shape, TypeInfo::Shape::kVector);
  EXPECT_EQ(ast->decl(f->params[0]).type.elem, "int");
  EXPECT_TRUE(ast->decl(f->params[0]).type.is_const);
  ASSERT_EQ(f->body.kids.size(), 3u);
  const Node& loop = f->body.kids[1];
  ASSERT_EQ(loop.kind, Node::Kind::kFor);
  EXPECT_TRUE(loop.has_init && loop.has_cond && loop.has_inc);
  EXPECT_EQ(loop.kids[1].op, "<");
  EXPECT_EQ(loop.kids[2].op, "++");
  const Node& update = loop.kids[3];
  ASSERT_EQ(update.kind, Node::Kind::kCompoundAssign);
  EXPECT_EQ(update.op, "+=");
  EXPECT_EQ(update.kids[1].kind, Node::Kind::kBinary);
  EXPECT_EQ(update.kids[1].kids[0].kind, Node::Kind::kSubscript);  // vector's operator[]
  EXPECT_EQ(ast->Text(update), "s += v[i] * k");
  EXPECT_EQ(ast->LineOf(update.begin), 4);
}

TEST_F(SeedTest, AFileThatDoesNotParseIsNamedWithItsLine) {
  auto ast = ParseFile("void f() {\n  int x = ;\n}\n", "bad.cpp");
  ASSERT_FALSE(ast.ok());
  EXPECT_NE(ast.status().message().find("bad.cpp:2"), std::string::npos) << ast.status().ToString();
}

TEST_F(SeedTest, IndependentIterationsAreMaps) {
  EXPECT_EQ(Analysed("void f(int n, float a, const float* x, float* y) {\n"
                     "  for (int i = 0; i < n; ++i) y[i] = a * x[i] + y[i];\n}\n",
                     "f"),
            "map");
  // A gather and a body with locals and an inner loop (one row per thread).
  EXPECT_EQ(
      Analysed("void f(int n, int m, const float* A, const float* x, float* y) {\n"
               "  for (int i = 0; i < n; ++i) {\n    float s = 0;\n"
               "    for (int j = 0; j < m; ++j) s += A[i * m + j] * x[j];\n    y[i] = s;\n  }\n}\n",
               "f"),
      "map");
  // A range-for over a vector of structs, written through the element.
  EXPECT_EQ(Analysed("#include <vector>\nstruct P { float x, v; };\n"
                     "void f(std::vector<P>& ps, float dt) { for (P& p : ps) p.x += p.v * dt; }\n",
                     "f"),
            "map");
}

TEST_F(SeedTest, RectangularNestsOverImagesAreGrids) {
  EXPECT_EQ(Analysed("void f(int h, int w, const float* in, float* out) {\n"
                     "  for (int y = 0; y < h; ++y)\n    for (int x = 0; x < w; ++x)\n"
                     "      out[x * h + y] = in[y * w + x];\n}\n",
                     "f"),
            "map-2d");
  // The inner loop's bound depends on the outer variable: only the outer one is parallel.
  EXPECT_EQ(
      Analysed(
          "void f(int n, float* a) {\n"
          "  for (int i = 0; i < n; ++i)\n    for (int j = 0; j < i; ++j) a[i * n + j] = 1;\n}\n",
          "f"),
      "map");
  // Independent over (i) only: every j writes row i's sum.
  EXPECT_EQ(Analysed("void f(int n, const float* a, float* s) {\n"
                     "  for (int i = 0; i < n; ++i)\n    for (int j = 0; j < n; ++j) s[i] += a[i * "
                     "n + j];\n}\n",
                     "f"),
            "map");
}

TEST_F(SeedTest, RecognisedReductions) {
  const char* forms[] = {
      "double f(const double* x, int n) { double s = 0; for (int i = 0; i < n; ++i) s += x[i]; "
      "return s; }",
      "int f(const float* x, int n, float t) { int c = 0; for (int i = 0; i < n; ++i) if (x[i] > "
      "t) ++c; return c; }",
      "float f(const float* x, int n) { float m = x[0]; for (int i = 0; i < n; ++i) if (x[i] > m) "
      "m = x[i]; return m; }",
      "#include <algorithm>\nint f(const int* x, int n) { int m = 0; for (int i = 0; i < n; ++i) m "
      "= std::max(m, x[i]); "
      "return m; }",
      "double f(const double* x, int n) { double p = 1; for (int i = 0; i < n; ++i) { if (i % 2) p "
      "*= x[i]; else p /= x[i]; }"
      " return p; }",
      "int f(const float* x, int n) { float b = 1e30f; int k = -1; for (int i = 0; i < n; ++i) { "
      "float d = x[i] * x[i];"
      " if (d < b) { b = d; k = i; } } return k; }",
      "int f(const int* x, int n) { int k = 0; for (int i = 1; i < n; ++i) if (x[i] < x[k]) k = i; "
      "return k; }",
  };
  for (const char* src : forms) EXPECT_EQ(Analysed(src, "f"), "reduction") << src;
}

TEST_F(SeedTest, DependencesAreRefusedWithTheirReason) {
  struct Case {
    const char* source;
    const char* category;
    const char* says;
  };
  const Case cases[] = {
      {"void f(const int* x, int* y, int n) { int r = 0; for (int i = 0; i < n; ++i) { r += x[i]; "
       "y[i] = r; } }",
       "dependence", "carries `r`"},
      {"void f(float* x, int n) { for (int i = 1; i < n; ++i) x[i] = x[i - 1] + x[i]; }",
       "dependence", "reads `x[i - 1]`"},
      {"void f(const int* d, int* h, int n) { for (int i = 0; i < n; ++i) h[d[i]]++; }",
       "dependence", "not an affine function"},
      {"void f(const int* x, int* y, int n, int m) { for (int i = 0; i < n; ++i) for (int j = 0; j "
       "< m; ++j) "
       "y[j] += x[i * m + j]; }",
       "dependence", "does not depend on the loop variable `i`"},
      {"int f(const int* x, int n) { for (int i = 0; i < n; ++i) if (x[i] == 0) return i; return "
       "-1; }",
       "dependence", "returns from inside the loop"},
      {"int f(const int* x, int n) { int k = -1; for (int i = 0; i < n; ++i) if (x[i] == 0) { k = "
       "i; break; } return k; }",
       "dependence", "breaks out of the loop"},
      {"int f(const int* x, int n) { int s = 0, e = 0; for (int i = 0; i < n; ++i) { e = e > 0 ? e "
       "+ x[i] : x[i]; "
       "if (e > s) s = e; } return s; }",
       "dependence", "`e`"},
      {"void f(int* x, int n) { int i = 0; while (i < n) { x[i] = 0; ++i; } }", "not-counted",
       "while"},
      {"#include <algorithm>\nvoid f(int* x, int n) { std::sort(x, x + n); }", "call", "std::sort"},
      {"void f(int* x, int n) { x[0] = 1; }", "host-code", "writes `x[0]` on the host"},
      {"void f(int* x, int n) { for (int i = 0; i < n; ++i) for (int j = 0; j < n; ++j) x[i + j] = "
       "1; }",
       "dependence", "without a stride"},
      {"#include <vector>\nvoid f(const std::vector<double>& x, std::vector<double>& s) { for "
       "(double v : x) s[0] += v; }",
       "dependence", "in a range-for"},
      {"void f(int* x, int n) { auto g = [&](int i) { return i * n; }; for (int i = 0; i < n; ++i) "
       "x[i] = g(i); }",
       "call", "the lambda `g`"},
      {"void f(int* x, int n) { for (int i = 0; i < n; ++i) { int* p = x + i; p[0] = 1; } }",
       "dependence", "local pointer `p`"},
      {"#include <vector>\nvoid f(const std::vector<int>& x, std::vector<bool>& m) { for (size_t i "
       "= 0; i < x.size(); ++i) "
       "m[i] = x[i] > 0; }",
       "type", "std::vector<bool>"},
      {"#include <complex>\nvoid f(const std::complex<float>* a, std::complex<float>* b, int n) { "
       "for (int i = 0; i < n; "
       "++i) b[i] = a[i] * a[i]; }",
       "type", "std::complex<float>"},
  };
  for (const Case& c : cases) {
    const std::string got = Analysed(c.source, "f");
    EXPECT_EQ(got.rfind(std::string("refused ") + c.category + ":", 0), 0u)
        << c.source << "\n  -> " << got;
    EXPECT_NE(got.find(c.says), std::string::npos) << c.source << "\n  -> " << got;
  }
}

TEST_F(SeedTest, ASeedIsADropInWithTheSameSignature) {
  Problem p = MakeProblem(
      "// y = a * x + y\nvoid saxpy(int n, float a, const float* x, float* y) {\n"
      "  for (int i = 0; i < n; ++i) y[i] = a * x[i] + y[i];\n}\n",
      "saxpy",
      R"([{"name": "n", "role": "size", "type": "int32"}, {"name": "a", "role": "scalar", "type": "float"},
          {"name": "x", "role": "input", "type": "float", "pass": "pointer", "length": "n"},
          {"name": "y", "role": "inout", "type": "float", "pass": "pointer", "length": "n"}])");
  Seed s = Parallelize(p);
  ASSERT_TRUE(s.written) << s.category << ": " << s.reason;
  EXPECT_EQ(s.pattern, "map");
  ASSERT_EQ(s.notes.size(), 1u);
  EXPECT_NE(s.notes[0].find("map over (i)"), std::string::npos);
  const std::string& c = s.code;
  EXPECT_NE(c.find("void saxpy(int n, float a, const float* x, float* y) {"), std::string::npos)
      << c;
  EXPECT_NE(c.find("__global__ void rs_saxpy_k0("), std::string::npos) << c;
  EXPECT_NE(c.find("y[i] = a * x[i] + y[i];"), std::string::npos) << c;  // the body as written
  // Allocate, copy in, launch, copy the written argument back, free.
  for (const char* step : {"cudaMalloc((void**)&rs_d_x", "cudaMemcpyHostToDevice", "rs_saxpy_k0<<<",
                           "cudaMemcpy(y, rs_d_y", "cudaFree(rs_d_x)"}) {
    EXPECT_NE(c.find(step), std::string::npos) << step << "\n" << c;
  }
  EXPECT_EQ(c.find("cudaMemcpy(x, rs_d_x"), std::string::npos) << "x is only read";
  // The pointer lengths come from the spec.
  EXPECT_NE(c.find("const int64_t rs_sz_n = (int64_t)(n);"), std::string::npos) << c;
}

// A pointer argument whose length the spec does not give in terms of the
// parameters (a hidden size, a sparse part it cannot count) cannot be copied.
TEST_F(SeedTest, APointerWithoutALengthIsRefused) {
  auto ast =
      ParseFile("void f(int n, float* y) { for (int i = 0; i < n; ++i) y[i] = 0; }", "t.cpp");
  ASSERT_TRUE(ast.ok());
  Analysis a = Analyze(*ast, *ast->Find("f"));
  ASSERT_TRUE(a.plan.has_value()) << a.refusal.message;
  Generated g = Generate(*ast, *ast->Find("f"), *a.plan, ArrayLengths{});
  EXPECT_TRUE(g.code.empty());
  EXPECT_EQ(g.refusal.category, "length");
  EXPECT_NE(g.refusal.message.find("`y`"), std::string::npos) << g.refusal.message;
}

TEST_F(SeedTest, ReductionsCombineInAFixedOrderInTwoPasses) {
  Problem p = MakeProblem(
      "int argmin(const int* x, int n) {\n  int k = 0;\n  for (int i = 1; i < n; ++i) if (x[i] < "
      "x[k]) k = i;\n"
      "  return k;\n}\n",
      "argmin",
      R"([{"name": "x", "role": "input", "type": "int32", "pass": "pointer", "length": "n"},
          {"name": "n", "role": "size", "type": "int32"}])",
      "int32");
  Seed s = Parallelize(p);
  ASSERT_TRUE(s.written) << s.category << ": " << s.reason;
  EXPECT_EQ(s.pattern, "reduction");
  EXPECT_NE(s.code.find("__global__ void rs_argmin_k1_final("), std::string::npos) << s.code;
  EXPECT_EQ(s.code.find("atomic"), std::string::npos) << "no atomics: the order is fixed";
  // The key of the index, evaluated for either candidate; the earlier index wins a tie.
  EXPECT_NE(s.code.find("return (x[k]);"), std::string::npos) << s.code;
  EXPECT_NE(s.code.find("k = rs_r_k;"), std::string::npos) << s.code;
}

}  // namespace
}  // namespace regrapht::seed
