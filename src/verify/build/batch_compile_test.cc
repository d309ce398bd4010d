#include "verify/build/batch_compile.h"

#include <gtest/gtest.h>

namespace regrapht::verify {
namespace {

std::string Why(const std::string& src) {
  std::string why;
  EXPECT_FALSE(BatchUnitOf(src, &why).has_value()) << src;
  return why;
}

std::vector<std::vector<size_t>> Plan(const std::vector<std::string>& sources, size_t max = 8) {
  std::vector<std::optional<BatchUnit>> units;
  for (const auto& s : sources) units.push_back(BatchUnitOf(s));
  return PlanBatches(units, max);
}

const char* kScale = R"(#include <cuda_runtime.h>
__global__ void scale_kernel(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
  for (int k = 0; k < 1; ++k) if (i < n) x[i] *= 2;
}
void scale(float* x, int n) { scale_kernel<<<(n + 255) / 256, 256>>>(x, n); }
)";

const char* kShift = R"(#include <cuda_runtime.h>
__global__ void shift_kernel(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1;
}
void shift(float* x, int n) { shift_kernel<<<(n + 255) / 256, 256>>>(x, n); }
)";

TEST(BatchCompileTest, DeclaredNamesAndIdentifiers) {
  auto u = BatchUnitOf(kScale);
  ASSERT_TRUE(u.has_value());
  EXPECT_EQ(u->declared, (std::set<std::string>{"scale_kernel", "scale"}));
  EXPECT_TRUE(u->identifiers.count("blockIdx"));
  EXPECT_TRUE(u->identifiers.count("x"));
  EXPECT_FALSE(u->declared.count("x")) << "a parameter is not declared at namespace scope";
  EXPECT_FALSE(u->declared.count("i")) << "a local is not declared at namespace scope";
  ASSERT_EQ(u->includes, std::vector<std::string>{"#include <cuda_runtime.h>"});
  EXPECT_EQ(u->body.find("#include"), std::string::npos);
  EXPECT_EQ(u->body.size(), std::string(kScale).size())
      << "blanked, not removed: line numbers survive";
}

TEST(BatchCompileTest, NamespaceAndLinkageBlocksAreNamespaceScope) {
  auto u = BatchUnitOf(R"(namespace { __device__ float sq(float v) { return v * v; } }
namespace a::b { struct P { float x; }; using real = float; }
extern "C" { __constant__ float table[16]; }
template <typename T, int N> __device__ T first(const T (&a)[N]) { return a[0]; }
enum class Mode { kA, kB };
int counter = 0, total;
)");
  ASSERT_TRUE(u.has_value());
  for (const char* name : {"sq", "P", "real", "table", "first", "Mode", "counter", "total"}) {
    EXPECT_TRUE(u->declared.count(name)) << name;
  }
  EXPECT_FALSE(u->declared.count("x")) << "a member is in its class's scope";
  EXPECT_FALSE(u->declared.count("T")) << "a template parameter is not declared at namespace scope";
  EXPECT_FALSE(u->declared.count("kA")) << "a scoped enumerator";
  // A body's extern declaration names one entity for the translation unit.
  auto k = BatchUnitOf(
      "__global__ void k(float* x) { extern __shared__ float tile[]; tile[0] = x[0]; }\n");
  ASSERT_TRUE(k.has_value());
  EXPECT_TRUE(k->declared.count("tile"));
  EXPECT_FALSE(k->declared.count("x"));
}

// Every construct that could let one source change what another compiles
// to keeps its source out of batches.
TEST(BatchCompileTest, SourcesThatMustCompileAlone) {
  EXPECT_EQ(Why("#pragma once\nvoid f() {}\n"), "a #pragma directive");
  EXPECT_EQ(Why("#error no\nvoid f() {}\n"), "a #error directive");
  EXPECT_EQ(Why("void f() {}\n#include <vector>\n"), "an #include after code or another directive");
  // A macro before an include could change the header.
  EXPECT_EQ(Why("#define _USE_MATH_DEFINES\n#include <cmath>\nvoid f() {}\n"),
            "an #include after code or another directive");
  EXPECT_EQ(Why("#include <a.h> \\\n  \nvoid f() {}\n"), "an #include continued over lines");
  EXPECT_EQ(Why("#undef min\nvoid f() {}\n"), "an #undef of a macro it did not define");
  EXPECT_EQ(Why("#if 1\nvoid f() {}\n"), "an #if without #endif");
  EXPECT_EQ(Why("#endif\nvoid f() {}\n"), "an #endif without #if");
  // A macro expanded at namespace scope may declare names no scan sees.
  EXPECT_EQ(Why("#define DECL(n) int n;\nDECL(x)\nint y;\n"),
            "a macro of its own used at namespace scope");
  EXPECT_EQ(
      Why("struct V { float x; };\n__device__ V operator+(V a, V b) { return {a.x + b.x}; }\n"),
      "an operator at namespace scope");
  EXPECT_EQ(Why("enum Color { kRed, kGreen };\n"), "an unscoped enum");
  EXPECT_EQ(Why("using namespace std;\nvoid f() {}\n"), "a using-declaration or using-directive");
  EXPECT_EQ(Why("using std::max;\nvoid f() {}\n"), "a using-declaration or using-directive");
  EXPECT_EQ(Why("template <> struct Traits<int> { };\n"), "an explicit specialisation");
  EXPECT_EQ(Why("struct S { int a; }\n"), "it does not end in a complete declaration");
  EXPECT_EQ(Why("void f() {}\nint x = 1\n"), "it does not end in a complete declaration");
  EXPECT_NE(Why("void f() { \"open\n}\n").find("unterminated"), std::string::npos);
  // Inside a class or function body the same constructs are scoped: fine.
  EXPECT_TRUE(BatchUnitOf("struct V { float x; V operator+(V o) const { return {x + o.x}; } };\n"
                          "void f() { using namespace std; enum { kTile = 4 }; }\n")
                  .has_value());
}

TEST(BatchCompileTest, MacrosAreDeclaredNamesAndNeverLeaveTheirSource) {
  auto u = BatchUnitOf(
      "#define TILE 16\n#ifndef BLOCK\n#define BLOCK 256\n#endif\n"
      "__global__ void k(float* x) { x[0] = TILE * BLOCK; }\n#undef TILE\n");
  ASSERT_TRUE(u.has_value());
  EXPECT_EQ(u->macros, (std::set<std::string>{"TILE", "BLOCK"}));
  EXPECT_TRUE(u->declared.count("TILE") && u->declared.count("BLOCK") && u->declared.count("k"));
  // One defines CHECK, the other uses a CHECK it never defines (alone it
  // would not compile): never together.
  const char* defines = "#define CHECK(x) (x)\nvoid a() { CHECK(0); }\n";
  const char* uses = "void b() { CHECK(0); }\n";
  EXPECT_TRUE(Plan({defines, uses}).empty());
  // Two that each define CHECK before using it: each sees its own (the
  // first's is undefined after it), so they may share.
  EXPECT_EQ(Plan({defines, "#define CHECK(x) ((x) + 1)\nvoid c() { CHECK(1); }\n"}),
            (std::vector<std::vector<size_t>>{{0, 1}}));
  // One that asks about CHECK before defining it would see a difference.
  EXPECT_TRUE(
      Plan({defines, "#ifndef CHECK\n#define CHECK(x) (x)\n#endif\nvoid c() { CHECK(1); }\n"})
          .empty());
  // A conditional on another's macro counts as a use.
  EXPECT_TRUE(Plan({defines, "#ifdef CHECK\nvoid d() {}\n#endif\n"}).empty());
  auto a = BatchUnitOf(defines), b = BatchUnitOf("void e() {}\n");
  ASSERT_TRUE(a && b);
  std::string src = BatchSource({&*a, &*b}, {"a.cu", "b.cu"});
  EXPECT_LT(src.find("#undef CHECK\n"), src.find("#line 1 \"b.cu\"")) << src;
}

TEST(BatchCompileTest, PlansGroupsOfSourcesThatCannotSeeEachOther) {
  EXPECT_EQ(Plan({kScale, kShift}), (std::vector<std::vector<size_t>>{{0, 1}}));
  // Two steps of one trajectory declare the same kernel: never together.
  EXPECT_TRUE(Plan({kScale, kScale}).empty());
  // The second uses a helper only the first declares: alone it would not
  // compile, so it must never be proven by a batch.
  const char* helper =
      "__device__ float sq(float v) { return v * v; }\n__global__ void a(float* x) { x[0] = "
      "sq(x[0]); }\n";
  const char* borrower = "__global__ void b(float* x) { x[0] = sq(x[0]); }\n";
  EXPECT_TRUE(Plan({helper, borrower}).empty());
  // Different includes: never together (each sees exactly its own headers).
  EXPECT_TRUE(Plan({kScale, std::string("#include <vector>\n") + "void g() {}\n"}).empty());
  // A source that must compile alone is in no group.
  EXPECT_EQ(Plan({kScale, "#pragma once\nvoid q() {}\n", kShift}),
            (std::vector<std::vector<size_t>>{{0, 2}}));
}

TEST(BatchCompileTest, GroupsAreBoundedAndFirstFit) {
  std::vector<std::string> sources;
  for (int i = 0; i < 5; ++i) sources.push_back("void f" + std::to_string(i) + "() {}\n");
  EXPECT_EQ(Plan(sources, 2), (std::vector<std::vector<size_t>>{{0, 1}, {2, 3}}));
  EXPECT_EQ(Plan(sources, 8), (std::vector<std::vector<size_t>>{{0, 1, 2, 3, 4}}));
  EXPECT_TRUE(Plan(sources, 1).empty());
}

TEST(BatchCompileTest, BatchSourceNamesEachSourceAndKeepsItsLines) {
  auto a = BatchUnitOf(kScale), b = BatchUnitOf(kShift);
  ASSERT_TRUE(a && b);
  std::string src = BatchSource({&*a, &*b}, {"step1.cu", "step2.cu"});
  EXPECT_EQ(src.find("#include <cuda_runtime.h>\n#line 1 \"step1.cu\"\n"), 0u) << src;
  size_t second = src.find("#line 1 \"step2.cu\"\n");
  ASSERT_NE(second, std::string::npos);
  // Line 3 of step2.cu is the same text as line 3 of kShift.
  size_t at = second + std::string("#line 1 \"step2.cu\"\n").size();
  for (int line = 1; line < 3; ++line) at = src.find('\n', at) + 1;
  EXPECT_EQ(src.substr(at, src.find('\n', at) - at),
            "  int i = blockIdx.x * blockDim.x + threadIdx.x;");
  EXPECT_EQ(src.find("#include", 1), std::string::npos) << "includes appear once";
}

}  // namespace
}  // namespace regrapht::verify
