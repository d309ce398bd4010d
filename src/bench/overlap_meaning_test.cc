#include "bench/overlap_meaning.h"

#include <gtest/gtest.h>

#include "bench/overlap_structure.h"
#include "core/fs.h"
#include "seed/ast.h"

namespace regrapht::bench {
namespace {

ProblemSpec Spec(const std::string& json) {
  auto s = ParseProblemSpec(json, "problem.json");
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  return s.ok() ? *s : ProblemSpec{};
}

// `sizes` with each "x": given the value n: R"("n": )" -> "\"n\": 33".
std::string Sized(const std::string& sizes, int n) {
  std::string out;
  for (char c : sizes) out += c == ' ' ? std::to_string(n) : std::string(1, c);
  return out;
}

std::string Args(const std::string& function, const std::string& args, const std::string& sizes = R"("n": )") {
  std::string tests;
  for (int n : {1, 33, 1001}) tests += std::string(tests.empty() ? "" : ", ") + R"({"sizes": {)" + Sized(sizes, n) + R"(}, "seed": 1})";
  return R"({"format": "regrapht-problem", "version": 1, "name": ")" + function + R"(", "function": ")" + function +
         R"(", "args": [)" + args + R"(], "tests": [)" + tests + R"(], "timing": {"sizes": {)" + Sized(sizes, 5000) +
         R"(}, "seed": 2}})";
}

const char* kSaxpyArgs =
    R"({"name": "n", "role": "size", "type": "int32"},
       {"name": "a", "role": "scalar", "type": "float"},
       {"name": "x", "role": "input", "type": "float", "pass": "pointer", "length": "n"},
       {"name": "y", "role": "inout", "type": "float", "pass": "pointer", "length": "n"})";

TEST(ArgMappingsTest, SameKindsInAnotherOrderBindByKind) {
  ProblemSpec b = Spec(Args("saxpy", kSaxpyArgs));
  // The same kinds, scalar first and the size last, in other names.
  ProblemSpec c = Spec(Args("axpy", R"({"name": "alpha", "role": "scalar", "type": "double"},
       {"name": "src", "role": "input", "type": "float", "pass": "pointer", "length": "m"},
       {"name": "dst", "role": "inout", "type": "float", "pass": "pointer", "length": "m"},
       {"name": "m", "role": "size", "type": "size_t"})",
                         R"("m": )"));
  auto m = ArgMappings(b, c, 6);
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].Text(b, c), "alpha<-a, src<-x, dst<-y, m<-n");
}

TEST(ArgMappingsTest, ElementTypeRoleAndReturnMustAgree) {
  ProblemSpec b = Spec(Args("saxpy", kSaxpyArgs));
  // double arrays: another element type.
  ProblemSpec dbl = Spec(Args("daxpy", R"({"name": "n", "role": "size", "type": "int32"},
       {"name": "a", "role": "scalar", "type": "float"},
       {"name": "x", "role": "input", "type": "double", "pass": "pointer", "length": "n"},
       {"name": "y", "role": "inout", "type": "double", "pass": "pointer", "length": "n"})"));
  EXPECT_TRUE(ArgMappings(b, dbl, 6).empty());
  // y an output, not in-out: another role.
  ProblemSpec out = Spec(Args("scale", R"({"name": "n", "role": "size", "type": "int32"},
       {"name": "a", "role": "scalar", "type": "float"},
       {"name": "x", "role": "input", "type": "float", "pass": "pointer", "length": "n"},
       {"name": "y", "role": "output", "type": "float", "pass": "pointer", "length": "n"})"));
  EXPECT_TRUE(ArgMappings(b, out, 6).empty());
  // One parameter more.
  ProblemSpec more = Spec(Args("saxpy2", std::string(kSaxpyArgs) +
                                             R"(, {"name": "k", "role": "size", "type": "int32"})",
                                 R"("n": ,"k": )"));
  EXPECT_TRUE(ArgMappings(b, more, 6).empty());
  // A return value the benchmark does not have.
  std::string with_return = Args("ssum", kSaxpyArgs);
  with_return.insert(with_return.find("\"args\""), R"("returns": "float", )");
  EXPECT_TRUE(ArgMappings(b, Spec(with_return), 6).empty());
}

TEST(ArgMappingsTest, PermutesOneKindAtATimeUpToTheCap) {
  const char* two_sizes = R"({"name": "rows", "role": "size", "type": "int32"},
       {"name": "cols", "role": "size", "type": "int32"},
       {"name": "x", "role": "input", "type": "float", "pass": "pointer", "length": "rows*cols"},
       {"name": "y", "role": "output", "type": "float", "pass": "pointer", "length": "rows*cols"})";
  ProblemSpec b = Spec(Args("t", two_sizes, R"("rows": ,"cols": )"));
  ProblemSpec c = Spec(Args("u", two_sizes, R"("rows": ,"cols": )"));
  auto m = ArgMappings(b, c, 6);
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].Text(b, c), "rows<-rows, cols<-cols, x<-x, y<-y");
  EXPECT_EQ(m[1].Text(b, c), "rows<-cols, cols<-rows, x<-x, y<-y");
  EXPECT_EQ(ArgMappings(b, c, 1).size(), 1u);
}

TEST(ArgMappingsTest, AVectorBindsAPointerButNotTheOtherWayRound) {
  std::string vec_json = Args("vsum", R"({"name": "x", "role": "input", "type": "double", "pass": "vector", "length": "n"},
       {"name": "y", "role": "output", "type": "double", "pass": "vector", "length": "n"})");
  vec_json.insert(vec_json.find("\"args\""), R"("sizes": ["n"], )");
  ProblemSpec vec = Spec(vec_json);
  std::string ptr_json = Args("psum", R"({"name": "x", "role": "input", "type": "double", "pass": "pointer", "length": "n"},
       {"name": "y", "role": "output", "type": "double", "pass": "pointer", "length": "n"})");
  ptr_json.insert(ptr_json.find("\"args\""), R"("sizes": ["n"], )");
  ProblemSpec ptr = Spec(ptr_json);
  // vec lacks a size argument: the tests' n is an extra size there.
  EXPECT_EQ(ArgMappings(vec, ptr, 6).size(), 1u);
  EXPECT_TRUE(ArgMappings(ptr, vec, 6).empty());
  Problem b{fs::path("b"), vec, "", {}, {}, "", ""};
  Problem c{fs::path("c"), ptr, "#include <cstddef>\nvoid psum(const double* x, double* y) { y[0] = x[0]; }\n",
            {}, {}, "", ""};
  std::string adapter = AdapterSource(b, c, ArgMappings(vec, ptr, 6)[0]);
  EXPECT_NE(adapter.find("#include <cstddef>\nnamespace rg_twin {\nvoid psum("), std::string::npos) << adapter;
  EXPECT_NE(adapter.find("void vsum(const std::vector<double>& x, std::vector<double>& y) {\n"
                         "  return rg_twin::psum(x.data(), y.data());"),
            std::string::npos)
      << adapter;
}

TEST(ArgMappingsTest, StructsAreNeverCompatible) {
  std::string s = R"({"format": "regrapht-problem", "version": 1, "name": "p", "function": "p",
    "structs": [{"name": "P", "fields": [{"name": "x", "type": "double"}]}],
    "args": [{"name": "n", "role": "size", "type": "int32"},
             {"name": "a", "role": "input", "type": "P", "pass": "pointer", "length": "n",
              "values": {"dist": "struct", "fields": {"x": {"dist": "uniform", "min": 0, "max": 1}}}},
             {"name": "y", "role": "output", "type": "double", "pass": "pointer", "length": "n"}],
    "tests": [{"sizes": {"n": 1}, "seed": 1}, {"sizes": {"n": 33}, "seed": 1}, {"sizes": {"n": 1001}, "seed": 1}],
    "timing": {"sizes": {"n": 5000}, "seed": 2}})";
  ProblemSpec p = Spec(s);
  EXPECT_EQ(ParamKind(p, p.args[1]), "");
  EXPECT_TRUE(ArgMappings(p, p, 6).empty());
}

TEST(ReadExplainedTest, ParsesAndRefusesMalformedLines) {
  fs::path dir = fs::temp_directory_path() / ("rg_explained_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::path f = dir / "x.tsv";
  ASSERT_TRUE(WriteFileAtomic(f, "# comment\n\nb\tc\tdistinct\tnot the same\tnone\n").ok());
  auto e = ReadExplained(f);
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  ASSERT_EQ(e->size(), 1u);
  EXPECT_EQ(e->begin()->second.why, "not the same");
  ASSERT_TRUE(WriteFileAtomic(f, "b\tc\tmaybe\twhy\tnone\n").ok());
  EXPECT_NE(ReadExplained(f).status().message().find("x.tsv:1: verdict 'maybe'"), std::string::npos);
  ASSERT_TRUE(WriteFileAtomic(f, "b\tc\ttwin\twhy\n").ok());
  EXPECT_NE(ReadExplained(f).status().message().find("want 5 tab-separated fields"), std::string::npos);
  ASSERT_TRUE(WriteFileAtomic(f, "b\tc\ttwin\twhy\tx\nb\tc\tdistinct\twhy\ty\n").ok());
  EXPECT_NE(ReadExplained(f).status().message().find("x.tsv:2: pair b / c already explained on line 1"),
            std::string::npos);
  fs::remove_all(dir);
}

// ---------------------------------------------------------------------------
// Structure

LoopStructure Of(const std::string& source, const std::string& function) {
  auto s = StructureOf(source, function, "test.cpp");
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  return s.ok() ? *s : LoopStructure{};
}

bool Has(const LoopStructure& s, const std::string& f) { return s.features.count(f) > 0; }

TEST(StructureTest, ErasesNamesAndReadsAStructArrayLikeParallelArrays) {
  if (!seed::FrontEndAvailable()) GTEST_SKIP() << "built without libclang";
  LoopStructure soa = Of(
      "void coo(int n, int nnz, const int* row, const int* col, const double* val, const double* x, double* y) {\n"
      "  for (int i = 0; i < n; ++i) y[i] = 0.0;\n"
      "  for (int k = 0; k < nnz; k++) y[row[k]] += val[k] * x[col[k]];\n"
      "}\n",
      "coo");
  EXPECT_EQ(soa.shape, "LL");
  EXPECT_TRUE(Has(soa, "W+= A[A[v0]]")) << SerializeStructure(soa);
  EXPECT_TRUE(Has(soa, "R A[A[v0]]"));
  EXPECT_TRUE(Has(soa, "loop (v0<s) ++"));
  LoopStructure aos = Of(
      "#include <vector>\n#include <cstddef>\n"
      "struct E { size_t r, c; double v; };\n"
      "void spmv(const std::vector<E>& a, const std::vector<double>& x, std::vector<double>& y, size_t m) {\n"
      "  for (size_t i = 0; i < m; ++i) y[i] = 0;\n"
      "  for (const E& e : a) y[e.r] += e.v * x[e.c];\n"
      "}\n",
      "spmv");
  EXPECT_TRUE(Has(aos, "W+= A[A[v0]] <- *")) << SerializeStructure(aos);
  EXPECT_TRUE(Has(aos, "R A[A[v0]]"));
  LoopStructure map = Of(
      "#include <cmath>\n"
      "void f(int n, const float* x, float* y) { for (int i = 0; i < n; ++i) y[i] = std::sqrt(x[i]) * 2.0f; }\n",
      "f");
  EXPECT_TRUE(Has(map, "call sqrt"));
  EXPECT_TRUE(Has(map, "W= A[v0] <- * sqrt")) << SerializeStructure(map);
  std::vector<LoopStructure> first = {aos}, second = {soa, map};
  auto pairs = ScoreStructures(first, second);
  ASSERT_EQ(pairs.size(), 2u);
  EXPECT_EQ(pairs[0].second, 0u);  // the COO twin before the map
  EXPECT_GT(pairs[0].similarity, 0.6);
  EXPECT_LT(pairs[1].similarity, 0.3);
}

TEST(StructureTest, NestingIndexShapesAndCommutedOperandsNormalise) {
  if (!seed::FrontEndAvailable()) GTEST_SKIP() << "built without libclang";
  LoopStructure a = Of(
      "void mm(int n, const float* A, const float* B, float* C) {\n"
      "  for (int i = 0; i < n; ++i)\n"
      "    for (int j = 0; j < n; ++j) {\n"
      "      float s = 0;\n"
      "      for (int k = 0; k < n; ++k) s += A[i * n + k] * B[k * n + j];\n"
      "      C[i * n + j] = s;\n"
      "    }\n"
      "}\n",
      "mm");
  EXPECT_EQ(a.shape, "L(L(L))");
  EXPECT_TRUE(Has(a, "W= A[((s*v0)+v1)]")) << SerializeStructure(a);
  EXPECT_TRUE(Has(a, "S+= <- *")) << SerializeStructure(a);
  // The same product with other names, n * i + j and j + i * n spellings.
  LoopStructure b = Of(
      "void gemm(int m, const float* p, const float* q, float* r) {\n"
      "  for (int row = 0; row < m; row++)\n"
      "    for (int col = 0; col < m; col++) {\n"
      "      float acc = 0;\n"
      "      for (int t = 0; t < m; t++) acc += p[m * row + t] * q[col + t * m];\n"
      "      r[col + row * m] = acc;\n"
      "    }\n"
      "}\n",
      "gemm");
  EXPECT_EQ(a.features, b.features) << SerializeStructure(a) << "---\n" << SerializeStructure(b);
  auto back = ParseStructure(SerializeStructure(a));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->features, a.features);
  EXPECT_EQ(back->shape, a.shape);
}

TEST(StructureTest, SimilarityIsWeightedJaccard) {
  LoopStructure a, b;
  a.features = {{"x", 2}, {"y", 1}};
  b.features = {{"x", 1}, {"z", 1}};
  // min: x 1; max: x 2, y 1, z 1 (z weighs 3).
  EXPECT_DOUBLE_EQ(StructureSimilarity(a, b, {{"z", 3.0}}), 1.0 / (2 + 1 + 3));
  EXPECT_DOUBLE_EQ(StructureSimilarity(a, a, {}), 1.0);
  EXPECT_DOUBLE_EQ(StructureSimilarity(LoopStructure{}, LoopStructure{}, {}), 0.0);
}

}  // namespace
}  // namespace regrapht::bench
