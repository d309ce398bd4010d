#include "verify/spec/infer.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "regrapht/problem.h"

namespace regrapht::verify {
namespace {

// name:role per argument, then "returns" if the spec has one.
std::string Roles(const InferredSpec& spec) {
  nlohmann::json j = nlohmann::json::parse(spec.spec_json);
  std::string out;
  for (const auto& a : j["args"])
    out += a["name"].get<std::string>() + ":" + a["role"].get<std::string>() + " ";
  if (j.contains("returns")) out += "returns " + j["returns"].get<std::string>();
  return out;
}

TEST(InferSpecTest, PointersSizesAndScalars) {
  auto s = InferSpec(
      "void saxpy(int n, float a, const float* x, float* y) {\n"
      "  for (int i = 0; i < n; ++i) y[i] = a * x[i] + y[i];\n}\n",
      "saxpy");
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_TRUE(s->complete);
  EXPECT_EQ(Roles(*s), "n:size a:scalar x:input y:inout ");
}

TEST(InferSpecTest, VectorsGetAHiddenSize) {
  auto s = InferSpec(
      "#include <vector>\ndouble sumSquares(std::vector<double> const& x) { return 0; }\n",
      "sumSquares");
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_TRUE(s->complete);
  EXPECT_EQ(Roles(*s), "x:input returns double");
}

// The definition is found as core/scanner.h finds it: not the mention in a
// comment, not the prototype, not the call; noexcept and specifiers are
// accepted (before the scanner, noexcept made this "no definition").
TEST(InferSpecTest, FindsTheDefinitionNotPrototypesOrCalls) {
  auto s = InferSpec(
      "// saxpy(int n) { is only mentioned here\n"
      "void saxpy(int n, float a, const float* x, float* y);\n"
      "void caller(float* y) { saxpy(3, 1.0f, y, y); }\n"
      "static inline void saxpy(int n, float a, const float* x, float* y) noexcept {\n"
      "  for (int i = 0; i < n; ++i) y[i] += a * x[i];\n}\n",
      "saxpy");
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(Roles(*s), "n:size a:scalar x:input y:inout ");
}

TEST(InferSpecTest, ReturnTypeOnItsOwnLine) {
  auto s = InferSpec(
      "__host__ float\ndot(int n, const float* x, const float* y) {\n  return 0;\n}\n", "dot");
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(Roles(*s), "n:size x:input y:input returns float");
}

TEST(InferSpecTest, NoDefinitionIsAnError) {
  auto s = InferSpec("void g(float* y) { f(y, 3); }\nvoid f(float* y, int n);\n", "f");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().message(), "no definition of the function 'f' in the source");
}

// The spec parses as problem.json (docs/problem-format.md).
void ExpectParses(const InferredSpec& s) {
  auto p = ParseProblemSpec(s.spec_json, "problem.json");
  EXPECT_TRUE(p.ok()) << p.status().ToString() << "\n" << s.spec_json;
}

// A template: incomplete, the reason says `why`, exactly `fields` to fill,
// each marked in the JSON where the path names one value.
void ExpectTemplate(const InferredSpec& s, const std::string& why,
                    std::vector<std::string> fields) {
  EXPECT_FALSE(s.complete) << s.spec_json;
  EXPECT_NE(s.problem.find(why), std::string::npos) << s.problem;
  EXPECT_EQ(s.to_fill, fields) << s.spec_json;
  EXPECT_NE(s.spec_json.find(kFillIn), std::string::npos);
  EXPECT_NE(s.spec_json.find("TEMPLATE"), std::string::npos);
  // Still JSON; as a spec it fails until the marked values are replaced.
  EXPECT_TRUE(nlohmann::json::accept(s.spec_json));
  EXPECT_FALSE(ParseProblemSpec(s.spec_json, "problem.json").ok());
}

InferredSpec Infer(const std::string& source, const std::string& function) {
  auto s = InferSpec(source, function);
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  return s.ok() ? *s : InferredSpec{};
}

TEST(InferSpecTest, CompleteSpecsParse) {
  ExpectParses(
      Infer("void saxpy(int n, float a, const float* x, float* y) { for (int i = 0; i < n; ++i) "
            "y[i] += a * x[i]; }",
            "saxpy"));
  ExpectParses(
      Infer("#include <vector>\ndouble s(std::vector<double> const& x) { return x[0]; }", "s"));
}

// A struct the source defines: its scalar fields become the spec's struct
// (an array field one field per element); the pointer is printed with its
// space (`const Particle* p`, never `const Particle*p`).
TEST(InferSpecTest, StructsTheSourceDefinesAreInferred) {
  InferredSpec s = Infer(
      "struct Particle {\n  float x, y, z;\n  float v[3];\n  double mass = 1.0;\n"
      "  float speed() const { float t = v[0]; return t; }\n};\n"
      "void ke(int n, const Particle *p, float* out) { for (int i = 0; i < n; ++i) out[i] = "
      "p[i].mass; }\n",
      "ke");
  EXPECT_TRUE(s.complete) << s.problem;
  EXPECT_EQ(Roles(s), "n:size p:input out:inout ");
  nlohmann::json j = nlohmann::json::parse(s.spec_json);
  ASSERT_EQ(j["structs"].size(), 1u);
  std::string fields;
  for (const auto& f : j["structs"][0]["fields"])
    fields += f["name"].get<std::string>() + ":" + f["type"].get<std::string>() + " ";
  EXPECT_EQ(fields, "x:float y:float z:float v_0:float v_1:float v_2:float mass:double ");
  EXPECT_EQ(j["args"][1]["values"]["dist"], "struct");
  auto spec = ParseProblemSpec(s.spec_json, "problem.json");
  ASSERT_TRUE(spec.ok()) << spec.status().ToString();
  EXPECT_EQ(spec->Signature(), "void ke(int n, const Particle* p, float* out)");
}

TEST(InferSpecTest, PointerParametersArePrintedWithTheirSpace) {
  InferredSpec s = Infer(
      "#include \"particle.h\"\nvoid ke(int n, const Particle*p, float * out) { out[0] = p[0].m; "
      "}\n",
      "ke");
  ExpectTemplate(s, "struct Particle is not defined in the source",
                 {"structs[0].fields", "args[1].values.fields"});
  InferredSpec u = Infer("void f(int n, float **rows, float* out) { out[0] = rows[0][0]; }\n", "f");
  ExpectTemplate(u, "args[1] (float** rows): type 'float**' is not supported",
                 {"args[1].role", "args[1].type", "args[1].pass"});
  for (const std::string& text : {s.problem, u.problem, s.spec_json, u.spec_json}) {
    EXPECT_EQ(text.find("*p"), std::string::npos) << text;
    EXPECT_EQ(text.find("*rows"), std::string::npos) << text;
  }
}

// A nested type definition is no field; a member of a nested struct type is
// one, and not a scalar.
TEST(InferSpecTest, NestedTypesInStructs) {
  InferredSpec s = Infer(
      "struct A { enum Kind { kX, kY }; struct Tag { int t; }; float v; };\n"
      "struct B { struct { float a, b; } in; float w; };\n"
      "void f(int n, const A* a, const B* b, float* y) { for (int i = 0; i < n; ++i) y[i] = a[i].v "
      "+ b[i].w; }",
      "f");
  EXPECT_NE(s.problem.find("struct B has fields that are not scalars: in (struct)"),
            std::string::npos)
      << s.problem;
  EXPECT_EQ(s.problem.find("struct A"), std::string::npos) << s.problem;
  nlohmann::json j = nlohmann::json::parse(s.spec_json);
  EXPECT_EQ(j["structs"][0]["fields"].size(), 1u);
  EXPECT_EQ(s.to_fill, std::vector<std::string>{"structs[1].fields[0].type"});
}

// Refusal classes: each gives a template naming the fields to edit.
TEST(InferSpecTest, APointerWithoutASizeIsATemplate) {
  InferredSpec s = Infer("void scale(float* x) { x[0] *= 2; }\n", "scale");
  ExpectTemplate(s, "pointer parameters but no size parameter", {"args[0].length"});
  EXPECT_EQ(nlohmann::json::parse(s.spec_json)["sizes"], nlohmann::json::array({"n"}));
}

TEST(InferSpecTest, SeveralSizesAreATemplateWhoseFilledInVersionParses) {
  InferredSpec s = Infer(
      "void add2d(int rows, int cols, const float* a, float* b) {\n"
      "  for (int i = 0; i < rows * cols; ++i) b[i] += a[i];\n}\n",
      "add2d");
  ExpectTemplate(s, "several size parameters (rows, cols)", {"args[2].length", "args[3].length"});
  nlohmann::json j = nlohmann::json::parse(s.spec_json);
  EXPECT_NE(j["args"][2]["length"].get<std::string>().find("rows*cols"), std::string::npos);
  j["args"][2]["length"] = "rows*cols";
  j["args"][3]["length"] = "rows*cols";
  auto spec = ParseProblemSpec(j.dump(), "problem.json");
  EXPECT_TRUE(spec.ok()) << spec.status().ToString();
}

TEST(InferSpecTest, UnsupportedTypesAreTemplates) {
  ExpectTemplate(
      Infer("#include <map>\nvoid f(int n, std::map<int, int>& m, float* y) { y[0] = m[0]; }", "f"),
      "args[1] (std::map<int, int>& m)", {"args[1].role", "args[1].type", "args[1].pass"});
  ExpectTemplate(Infer("void f(int n, const float& a, float* y) { y[0] = a; }", "f"),
                 "a const reference to a scalar is not supported",
                 {"args[1].role", "args[1].type", "args[1].pass"});
  ExpectTemplate(Infer("struct P { float x; };\nvoid f(int n, P p, float* y) { y[0] = p.x; }", "f"),
                 "a struct or class passed by value is not supported",
                 {"args[1].role", "args[1].type", "args[1].pass"});
  ExpectTemplate(
      Infer("#include <vector>\nstd::vector<float> f(int n, const float* x) { return {}; }", "f"),
      "the return type: type 'std::vector<float>' is not supported", {"returns"});
  ExpectTemplate(Infer("struct N { float* data; int k; };\nvoid f(int n, const N* a, float* y) { "
                       "y[0] = a[0].k; }",
                       "f"),
                 "struct N has fields that are not scalars: data (float*)",
                 {"structs[0].fields[0].type"});
}

TEST(InferSpecTest, NoOutputIsATemplate) {
  ExpectTemplate(Infer("float g;\nvoid f(int n, const float* x) { g = x[0]; }", "f"), "no output",
                 {"args[*].role"});
  // A non-const pointer the body only reads is an input, not an output.
  ExpectTemplate(
      Infer("float g;\nvoid f(int n, float* x) { for (int i = 0; i < n; ++i) g += x[i]; }", "f"),
      "no output", {"args[*].role"});
}

TEST(InferSpecTest, FunctionTemplatesAreTemplates) {
  ExpectTemplate(Infer("template <typename T>\nvoid f(int n, T* y) { y[0] = 0; }", "f"),
                 "is a function template",
                 {"reference.cpp", "args[1].role", "args[1].type", "args[1].pass"});
}

// No array and no size (numerical integration, say): the test cases differ
// by their seeds only.
TEST(InferSpecTest, ScalarOnlyFunctionsAreComplete) {
  InferredSpec s = Infer(
      "double integrate(double a, double b) { double s = 0; for (int i = 0; i < 1000; ++i) s += a "
      "+ b * i; return s; }",
      "integrate");
  EXPECT_TRUE(s.complete) << s.problem;
  EXPECT_EQ(Roles(s), "a:scalar b:scalar returns double");
  ExpectParses(s);
}

// Outputs from what the body does: written pointers are in-outs, read-only
// ones inputs ("const": false), resized vectors resizable outputs, and a
// range-for or an element reference may write.
TEST(InferSpecTest, RolesFollowWhatTheBodyDoes) {
  InferredSpec s = Infer(
      "#include <vector>\n"
      "void f(int n, float* x, float* y, std::vector<int>& idx, float* z, float* w) {\n"
      "  idx.clear();\n"
      "  for (int i = 0; i < n; ++i) { y[i] = x[i]; if (x[i] > 0) idx.push_back(i); }\n"
      "  for (float& e : std::vector<float>(z, z + n)) e = 0;\n"
      "  float& r = w[0]; r = 1;\n}\n",
      "f");
  EXPECT_TRUE(s.complete) << s.problem;
  EXPECT_EQ(Roles(s), "n:size x:input y:inout idx:output z:inout w:inout ");
  nlohmann::json j = nlohmann::json::parse(s.spec_json);
  EXPECT_EQ(j["args"][1]["const"], false);
  EXPECT_EQ(j["args"][3]["resizable"], true);
  EXPECT_FALSE(j["args"][3].contains("length"));
  ExpectParses(s);
}

// Several sizes: the product of the sizes follows the 1-D targets (timing
// 2^20 elements in all, not 2^20 per size); the small cases tell the sizes
// apart and one has a size above 256 that is not a multiple of 32.
TEST(InferSpecTest, MultiSizeCasesFollowTheProductOfTheSizes) {
  auto one = InferredSizeCases(1);
  ASSERT_EQ(one.size(), 7u);
  EXPECT_EQ(one.back()[0], 1 << 20);
  for (size_t dims : {2u, 3u}) {
    auto cases = InferredSizeCases(dims);
    ASSERT_EQ(cases.size(), 7u);
    auto product = [](const std::vector<int64_t>& c) {
      int64_t p = 1;
      for (int64_t v : c) p *= v;
      return p;
    };
    EXPECT_NEAR(static_cast<double>(product(cases.back())), 1 << 20, 0.05 * (1 << 20)) << dims;
    EXPECT_NEAR(static_cast<double>(product(cases[4])), 4099, 0.1 * 4099) << dims;
    EXPECT_NE(cases[1][0], cases[1][1]);
    EXPECT_EQ(cases[2][0], 300);
    for (int64_t v : cases[1]) EXPECT_LE(v, 16);
  }
  InferredSpec s = Infer("void f(int rows, int cols, float* a) { a[0] = 0; }", "f");
  nlohmann::json t = nlohmann::json::parse(s.spec_json)["timing"]["sizes"];
  EXPECT_EQ(t["rows"].get<int64_t>() * t["cols"].get<int64_t>(), 1 << 20);
}

// The parameter spellings docs/inference.md lists.
TEST(InferSpecTest, ParameterKinds) {
  InferredSpec s = Infer(
      "#include <array>\n#include <complex>\n"
      "void f(const int n, const float x[], float const* __restrict__ w, std::array<int, 16>& "
      "bins,\n"
      "       char c, short h, std::complex<float> a, float y[]) {\n"
      "  for (int i = 0; i < n; ++i) { y[i] = x[i] * w[i] + c + h + a.real(); bins[i % 16]++; "
      "}\n}\n",
      "f");
  EXPECT_TRUE(s.complete) << s.problem;
  EXPECT_EQ(Roles(s), "n:size x:input w:input bins:inout c:scalar h:scalar a:scalar y:inout ");
  nlohmann::json j = nlohmann::json::parse(s.spec_json);
  EXPECT_EQ(j["args"][3]["pass"], "array");
  EXPECT_EQ(j["args"][3]["length"], 16);
  EXPECT_EQ(j["args"][4]["type"], "char");
  EXPECT_EQ(j["args"][5]["type"], "int16");
  EXPECT_EQ(j["args"][6]["type"], "complex_float");
  auto spec = ParseProblemSpec(s.spec_json, "problem.json");
  ASSERT_TRUE(spec.ok()) << spec.status().ToString();
  EXPECT_EQ(
      spec->Signature(),
      "void f(int n, const float* x, const float* w, std::array<int, 16>& bins, char c, int16_t h, "
      "std::complex<float> a, float* y)");
}

// typedef'd and class structs; a vector read through size() and a const
// range-for is only read.
TEST(InferSpecTest, TypedefAndClassStructsAndReadOnlyVectors) {
  InferredSpec s = Infer(
      "#include <vector>\n"
      "typedef struct { float re, im; } Cplx;\n"
      "class Body { public: double m; int id; double mass() const { return m; } };\n"
      "void f(std::vector<Body>& bodies, std::vector<Cplx>& z) {\n"
      "  for (size_t i = 0; i < bodies.size(); ++i) z[i].re = bodies[i].m;\n}\n",
      "f");
  EXPECT_TRUE(s.complete) << s.problem;
  EXPECT_EQ(Roles(s), "bodies:input z:inout ");
  nlohmann::json j = nlohmann::json::parse(s.spec_json);
  ASSERT_EQ(j["structs"].size(), 2u);
  EXPECT_EQ(j["structs"][0]["name"], "Body");
  EXPECT_EQ(j["structs"][0]["fields"].size(), 2u);
  EXPECT_EQ(j["structs"][1]["name"], "Cplx");
  ExpectParses(s);
}

// Several sizes: loops bounded by sizes and subscripts `x[i]`, `x[i * K + k]`
// give the lengths; complete when every array has one and every size is used.
TEST(InferSpecTest, SeveralSizesFromSubscriptsAndLoopBounds) {
  InferredSpec s = Infer(
      "void gemm(int M, int N, int K, const float* A, const float* B, float* C) {\n"
      "  for (int i = 0; i < M; ++i)\n    for (int j = 0; j < N; ++j) {\n      float t = 0;\n"
      "      for (int k = 0; k < K; ++k) t += A[i * K + k] * B[k * N + j];\n"
      "      C[i * N + j] = t;\n    }\n}\n",
      "gemm");
  EXPECT_TRUE(s.complete) << s.problem;
  nlohmann::json j = nlohmann::json::parse(s.spec_json);
  EXPECT_EQ(j["args"][3]["length"], "M*K");
  EXPECT_EQ(j["args"][4]["length"], "K*N");
  EXPECT_EQ(j["args"][5]["length"], "M*N");
  EXPECT_EQ(j["timing"]["sizes"]["M"], 102);  // 102^3 ~ 2^20
  ExpectParses(s);
  // A size that is no bound (an index) keeps the template; found lengths stay.
  InferredSpec t = Infer(
      "void pick(int n, int at, const float* x, float* y) { for (int i = 0; i < n; ++i) y[i] = "
      "x[at]; }",
      "pick");
  ExpectTemplate(t, "several size parameters (n, at)", {"args[2].length"});
  EXPECT_EQ(nlohmann::json::parse(t.spec_json)["args"][3]["length"], "n");
  // Every array's length found, one size in none of them: its role is marked.
  InferredSpec u = Infer(
      "void add(int n, int m, const float* x, float* y) { for (int i = 0; i < n; ++i) y[i] += "
      "x[i]; }",
      "add");
  ExpectTemplate(u, "size parameter m is in no array's length", {"args[1].role"});
}

// One size, an array subscripted with the size as a factor: n x n.
TEST(InferSpecTest, ArraysIndexedAsMatricesAreNByN) {
  InferredSpec s = Infer(
      "void mv(int n, const float* a, const float* x, float* y) {\n"
      "  for (int i = 0; i < n; ++i) { float t = 0; for (int j = 0; j < n; ++j) t += a[i * n + j] "
      "* x[j]; y[i] = t; }\n}\n",
      "mv");
  EXPECT_TRUE(s.complete) << s.problem;
  nlohmann::json j = nlohmann::json::parse(s.spec_json);
  EXPECT_EQ(j["args"][1]["length"], "n*n");
  EXPECT_EQ(j["args"][2]["length"], "n");
  EXPECT_EQ(j["args"][3]["length"], "n");
  // The element count follows the 1-D targets: n*n = 2^20 at timing, not n = 2^20.
  EXPECT_EQ(j["timing"]["sizes"]["n"], 1024);
  EXPECT_EQ(j["tests"][4]["sizes"]["n"], 300);
  ExpectParses(s);
}

TEST(InferSpecTest, UnnamedParametersGetNames) {
  InferredSpec s = Infer("void f(int n, const float*, float* y) { y[0] = 0; }", "f");
  EXPECT_TRUE(s.complete) << s.problem;
  EXPECT_EQ(Roles(s), "n:size arg1:input y:inout ");
}

}  // namespace
}  // namespace regrapht::verify
