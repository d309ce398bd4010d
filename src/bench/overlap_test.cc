#include "bench/overlap.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>
#include <regex>

#include "core/fs.h"
#include "verify/test_util.h"

namespace regrapht::bench {
namespace {

std::vector<std::string> Texts(const std::vector<MaskedToken>& tokens) {
  std::vector<std::string> out;
  for (const auto& t : tokens) out.push_back(t.identifier ? "$" + t.text : t.text);
  return out;
}

TEST(MaskTokensTest, MasksIdentifiersLiteralsAndTypes) {
  auto t = MaskTokens(
      "#include <cmath>\n"
      "#define WIDTH \\\n  256\n"
      "// a comment with for (int i...)\n"
      "static inline double scale(const double* __restrict__ x, size_t n) {\n"
      "  /* block */ double s = 0.5e-3; const char* msg = \"hi { }\";\n"
      "  for (size_t i = 0; i < n; ++i) s += std::sqrt(x[i]) * 2;\n"
      "  return s + 'c';\n"
      "}\n",
      false);
  // clang-format off
  std::vector<std::string> expected = {
      "FLT", "$scale", "(", "FLT", "*", "$x", ",", "INT", "$n", ")",           // signature
      "FLT", "$s", "=", "N", ";", "INT", "*", "$msg", "=", ";",                // literals gone or "N"
      "for", "(", "INT", "$i", "=", "N", ";", "$i", "<", "$n", ";", "++", "$i", ")",
      "$s", "+=", "std", "::", "sqrt", "(", "$x", "[", "$i", "]", ")", "*", "N", ";",
      "return", "$s", "+", ";"};
  // clang-format on
  EXPECT_EQ(Texts(t), expected);
}

TEST(MaskTokensTest, KeepsCudaNames) {
  auto t = MaskTokens(
      "__global__ void k(float4* p) { int i = blockIdx.x * blockDim.x + threadIdx.x;"
      " __syncthreads(); atomicAdd(&p[i].x, __ldg(&p[0].y)); cudaMemcpyHostToDevice; make_float4; "
      "}",
      false);
  // clang-format off
  std::vector<std::string> expected = {
      "__global__", "void", "$k", "(", "float4", "*", "$p", ")", "INT", "$i", "=", "blockIdx", ".", "$x",
      "*", "blockDim", ".", "$x", "+", "threadIdx", ".", "$x", ";", "__syncthreads", "(", ")", ";",
      "atomicAdd", "(", "&", "$p", "[", "$i", "]", ".", "$x", ",", "__ldg", "(", "&", "$p", "[", "N", "]",
      ".", "$y", ")", ")", ";", "cudaMemcpyHostToDevice", ";", "make_float4", ";"};
  // clang-format on
  EXPECT_EQ(Texts(t), expected);
}

TEST(MaskTokensTest, DeviceCodeOnlyDropsTheHostWrapper) {
  const char* src =
      "#include <cuda_runtime.h>\n"
      "__constant__ float c_w[5];\n"
      "template <int B> __global__ void k(int n, float* y) { if (n) y[0] = c_w[B]; }\n"
      "__device__ inline float sq(float v) { return v * v; }\n"
      "template <typename T> T host_helper(T v) { return v; }\n"
      "void run(int n, float* y) { float* d; cudaMalloc(&d, n); k<4><<<1, 1>>>(n, d); }\n";
  auto device = Texts(MaskTokens(src, true));
  // clang-format off
  std::vector<std::string> expected = {
      "__constant__", "FLT", "$c_w", "[", "N", "]", ";",
      "template", "<", "INT", "$B", ">", "__global__", "void", "$k", "(", "INT", "$n", ",", "FLT", "*", "$y",
      ")", "if", "(", "$n", ")", "$y", "[", "N", "]", "=", "$c_w", "[", "$B", "]", ";",
      "__device__", "FLT", "$sq", "(", "FLT", "$v", ")", "return", "$v", "*", "$v", ";"};
  // clang-format on
  EXPECT_EQ(device, expected);
  // Host code only: kept whole.
  EXPECT_EQ(Texts(MaskTokens("void f(int n) { g(n); }", true)),
            Texts(MaskTokens("void f(int n) { g(n); }", false)));
}

TEST(FingerprintsTest, RenamingChangesNothingButDataFlowDoes) {
  auto fp = [](const char* s) { return Fingerprints(MaskTokens(s, false), 7, 1); };
  auto a =
      fp("float dot(const float* a, const float* b, int n) { float s = 0; for (int i = 0; i < n; "
         "++i) s += a[i] * b[i]; return s; }");
  auto renamed =
      fp("double inner(double* x, double* y, long m) { double acc = 1; for (long k = 2; k < m; "
         "++k) acc += x[k] * y[k]; return acc; }");
  auto squares =
      fp("float dot(const float* a, const float* b, int n) { float s = 0; for (int i = 0; i < n; "
         "++i) s += a[i] * a[i]; return s; }");
  EXPECT_EQ(a, renamed);
  EXPECT_NE(a, squares);
  EXPECT_FALSE(a.empty());
  EXPECT_TRUE(Fingerprints(MaskTokens("int x;", false), 7, 1).empty());  // fewer than k tokens
}

TEST(FingerprintsTest, WinnowingKeepsASubset) {
  auto tokens = MaskTokens(
      *ReadFile(testing_util::SourceDir() / "problems" / "saxpy" / "solution.cu"), false);
  auto all = Fingerprints(tokens, 9, 1);
  auto winnowed = Fingerprints(tokens, 9, 4);
  EXPECT_LT(winnowed.size(), all.size());
  EXPECT_GE(winnowed.size(), all.size() / 4);  // at least one per window of 4
  EXPECT_TRUE(std::includes(all.begin(), all.end(), winnowed.begin(), winnowed.end()));
}

// Items made in a temporary folder: name -> {file name -> code}.
class NearDuplicateTest : public testing::Test {
 protected:
  void SetUp() override { dir_.emplace(std::move(*TempDir::Create("rgnear"))); }
  OverlapItem Item(const std::string& name, const std::map<std::string, std::string>& files) {
    fs::path d = dir_->path() / name;
    fs::create_directories(d);
    OverlapItem it;
    it.set = "test";
    it.dir = d;
    it.name = name;
    for (const auto& [f, code] : files) {
      EXPECT_TRUE(WriteFile(d / f, code).ok());
      it.code_files.push_back(f);
    }
    return it;
  }
  static std::string Read(const std::string& rel) {
    return *ReadFile(testing_util::SourceDir() / rel);
  }
  std::optional<TempDir> dir_;
};

TEST_F(NearDuplicateTest, RenamedCopyScoresHighUnrelatedLow) {
  std::string stencil = Read("suites/cudaeval/stencil1d_5pt/solution.cu");
  // Every identifier the author chose, renamed; comments and layout changed.
  std::string renamed = stencil;
  for (auto [from, to] :
       std::vector<std::pair<const char*, const char*>>{{"c_stencil1d5_w", "kWeights"},
                                                        {"stencil1d5_kernel", "apply5"},
                                                        {"stencil1d5", "smooth_signal"},
                                                        {"\\bin\\b", "src"},
                                                        {"\\bout\\b", "dst"},
                                                        {"\\bsum\\b", "acc"},
                                                        {"\\bdin\\b", "d_src"},
                                                        {"\\bdout\\b", "d_dst"},
                                                        {"\\bweights\\b", "w"},
                                                        {"\\bbytes\\b", "nbytes"},
                                                        {"//[^\\n]*", ""}}) {
    renamed = std::regex_replace(renamed, std::regex(from), to);
  }
  ASSERT_NE(renamed, stencil);
  std::vector<OverlapItem> bench = {
      Item("stencil", {{"solution.cu", stencil}}),
      Item("jacobi", {{"solution.cu", Read("problems/jacobi2d/solution.cu")}})};
  std::vector<OverlapItem> corpus = {
      Item("copy", {{"step1.cu", renamed}}),
      Item("sum", {{"reference.cpp", Read("problems/sum_of_squares/reference.cpp")},
                   {"step1.cu", Read("problems/sum_of_squares/solution.cu")}})};
  auto r = ScoreNearDuplicates(bench, corpus, NearDuplicateOptions());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->pairs.size(), 4u);
  EXPECT_EQ(r->files_first, 2u);
  EXPECT_EQ(r->files_second, 3u);
  const PairScore& top = r->pairs[0];
  EXPECT_EQ(top.first, 0u);
  EXPECT_EQ(top.second, 0u);
  EXPECT_EQ(top.file_first, "solution.cu");
  EXPECT_EQ(top.file_second, "step1.cu");
  EXPECT_DOUBLE_EQ(top.similarity, 1.0);
  for (size_t i = 1; i < r->pairs.size(); ++i) {
    EXPECT_LT(r->pairs[i].similarity, 0.1) << r->pairs[i].first << " ~ " << r->pairs[i].second;
  }
  EXPECT_DOUBLE_EQ(ScoreQuantile(*r, 1.0), 1.0);
  EXPECT_LT(ScoreQuantile(*r, 0.5), 0.1);
}

TEST_F(NearDuplicateTest, MissingFileIsAnError) {
  std::vector<OverlapItem> bench = {Item("a", {{"reference.cpp", "int f() { return 1; }"}})};
  OverlapItem ghost = Item("b", {});
  ghost.code_files.push_back("step1.cu");
  auto r = ScoreNearDuplicates(bench, {ghost}, NearDuplicateOptions());
  EXPECT_FALSE(r.ok());
}

TEST(CollectItemsTest, ListsReferenceSolutionsAndSteps) {
  fs::path src = testing_util::SourceDir();
  auto bench = CollectItems(src / "suites" / "pareval" / "03_dense_la_axpy", "bench");
  ASSERT_TRUE(bench.ok()) << bench.status().ToString();
  ASSERT_EQ(bench->size(), 1u);
  EXPECT_EQ((*bench)[0].code_files,
            (std::vector<std::string>{"reference.cpp", "solution.cu", "kernel.cu"}));
  auto corpus =
      CollectItems(src / "src" / "bench" / "testdata" / "overlap_leaks" / "csr_row_sums", "corpus");
  ASSERT_TRUE(corpus.ok()) << corpus.status().ToString();
  ASSERT_EQ(corpus->size(), 1u);
  EXPECT_EQ((*corpus)[0].code_files,
            (std::vector<std::string>{"reference.cpp", "step1.cu", "step2.cu"}));
}

// The real benchmark against the real corpus plus the four kernels issue 13
// found leaking (src/bench/testdata/overlap_leaks): the default options flag
// all four pairs, and every flagged pair involves one of them.
TEST(NearDuplicateRealDataTest, FlagsTheFourLeaksOfIssue13) {
  auto start = std::chrono::steady_clock::now();
  fs::path src = testing_util::SourceDir();
  std::vector<OverlapItem> bench, corpus;
  for (const char* d : {"suites/cudaeval", "suites/pareval", "problems"}) {
    auto items = CollectItems(src / d, d);
    ASSERT_TRUE(items.ok()) << items.status().ToString();
    bench.insert(bench.end(), items->begin(), items->end());
  }
  for (const char* d : {"data/trajectories", "src/bench/testdata/overlap_leaks"}) {
    auto items = CollectItems(src / d, d);
    ASSERT_TRUE(items.ok()) << items.status().ToString();
    corpus.insert(corpus.end(), items->begin(), items->end());
  }
  NearDuplicateOptions options;
  auto r = ScoreNearDuplicates(bench, corpus, options);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  std::map<std::pair<std::string, std::string>, double> flagged;
  for (const auto& p : r->pairs) {
    if (p.similarity < options.threshold) break;
    flagged[{bench[p.first].dir.filename().string(), corpus[p.second].dir.filename().string()}] =
        p.similarity;
    EXPECT_EQ(corpus[p.second].set, "src/bench/testdata/overlap_leaks")
        << bench[p.first].dir << " ~ " << corpus[p.second].dir << ": " << p.similarity;
  }
  for (auto [b, c] : std::vector<std::pair<std::string, std::string>>{
           {"stencil1d_5pt", "conv1d_k9"},
           {"gemv_colmajor_f64", "gemv_transposed_f32"},
           {"spmv_csr_f32", "csr_row_sums"},
           {"bfs_frontier_step", "bfs_top_down_level"}}) {
    EXPECT_TRUE(flagged.count({b, c})) << b << " ~ " << c << " not flagged";
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 30.0);
}

}  // namespace
}  // namespace regrapht::bench
