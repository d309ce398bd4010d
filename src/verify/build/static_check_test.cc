#include "verify/build/static_check.h"

#include <gtest/gtest.h>

namespace regrapht::verify {
namespace {

const char* kGood = R"(
#include <cuda_runtime.h>
#include <vector>
// fopen("x") in a comment is fine, and so is "system(" in a string:
static const char* kMsg = "system(\"rm\") fopen";
__global__ void k(float* y, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = 0; }
template <int B> __global__ void k2(float* y) { y[threadIdx.x] = B; }
void f(float* y, int n) {
  float* d; cudaMalloc(&d, n * sizeof(float));
  k<<<(n + 255) / 256, 256>>>(d, n);
  k2<128><<<1, 128>>>(d);
  cudaMemcpy(y, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d);
}
)";

std::vector<std::string> Rules(const std::string& src, std::vector<std::string> libs = {}) {
  std::vector<std::string> out;
  for (const auto& f : StaticCheck(src, {"f", libs, true})) out.push_back(f.rule);
  return out;
}

TEST(StaticCheckTest, CleanCandidatePasses) {
  auto f = StaticCheck(kGood, {"f", {}, true});
  for (const auto& x : f) ADD_FAILURE() << x.ToString();
  EXPECT_EQ(KernelNames(kGood), (std::vector<std::string>{"k", "k2"}));
}

TEST(StaticCheckTest, PlantedCheatsAreCaught) {
  std::string base = kGood;
  auto with = [&](const std::string& extra) { return base + extra; };
  struct Case {
    std::string src;
    std::string rule;
  };
  std::vector<Case> cases = {
      {with("void g() { std::thread t([]{}); t.join(); }"), "no-threads"},
      {with("void g() { pthread_create(0, 0, 0, 0); }"), "no-threads"},
      {with("#pragma omp parallel for\nvoid g() {}"), "no-threads"},
      {with("void g() { if (fork() == 0) {} }"), "no-process"},
      {with("void g() { system(\"ls\"); }"), "no-process"},
      {with("void g() { execvp(\"sh\", 0); }"), "no-process"},
      {with("void g() { int s = socket(2, 1, 0); }"), "no-network"},
      {with("void g() { FILE* f = fopen(\"/tmp/cache\", \"w\"); }"), "no-file-io"},
      {with("void g() { std::ofstream o(\"x\"); }"), "no-file-io"},
      {with("void g() { void* h = dlopen(\"libref.so\", 1); }"), "no-file-io"},
      {with("void g() { syscall(39); }"), "no-syscall"},
      {with("void g() { const char* e = getenv(\"REGRAPHT\"); }"), "no-env"},
      {with("__attribute__((constructor)) void g() {}"), "no-hooks"},
      {with("void g() { atexit(0); }"), "no-hooks"},
      {with("void g() { cudaDeviceReset(); }"), "no-device-reset"},
      {with("int main() { return 0; }"), "no-main"},
      {with("#define F(a) fo##a\n"), "no-token-pasting"},
      {with("#include \"reference.cpp\"\n"), "includes"},
      {with("#include <unistd.h>\n"), "includes"},
      {with("#include <cublas_v2.h>\n"), "includes"},
      {with("void g() { cublasHandle_t h; cublasCreate(&h); }"), "no-library"},
      {with("void g() { thrust::device_vector<int> v; }"), "no-library"},
      {std::string("__global__ void k(float* y) {}\nvoid f(float* y, int n) { for (int i = 0; i < n; ++i) y[i] = 0; }"),
       "launches-kernel"},
      {std::string("void f(float* y, int n) { for (int i = 0; i < n; ++i) y[i] = 0; }"), "has-kernel"},
      {std::string("__global__ void k(float* y) {}\nvoid g(float* y) { k<<<1,1>>>(y); }"), "defines-function"},
  };
  for (const auto& c : cases) {
    auto rules = Rules(c.src);
    EXPECT_NE(std::find(rules.begin(), rules.end(), c.rule), rules.end())
        << "expected rule " << c.rule << " for:\n" << c.src.substr(base.size() < c.src.size() ? base.size() : 0);
  }
}

TEST(StaticCheckTest, KernelAttributesAreNotNames) {
  std::string src =
      "__global__ void __launch_bounds__(256, 2) k1(float* y) { y[0] = 1; }\n"
      "__global__ __launch_bounds__(128) void k2(float* y) { y[0] = 2; }\n"
      "template <int B> __global__ void __launch_bounds__(B) k3(float* y) { y[0] = B; }\n"
      "void f(float* y, int n) { k1<<<1, 256>>>(y); k2<<<1, 128>>>(y); k3<64><<<1, 64>>>(y); }\n";
  EXPECT_EQ(KernelNames(src), (std::vector<std::string>{"k1", "k2", "k3"}));
  EXPECT_TRUE(StaticCheck(src, {"f", {}, true}).empty());
}

TEST(StaticCheckTest, AllowedLibrariesPass) {
  std::string src = std::string("#include <cublas_v2.h>\n#include <thrust/reduce.h>\n") +
                    "void f(float* y, int n) { cublasHandle_t h; cublasCreate(&h); thrust::reduce(y, y + n); }";
  EXPECT_TRUE(Rules(src, {"cublas", "thrust"}).empty());
  // Without a library there must be a kernel.
  EXPECT_EQ(Rules(src, {"cublas"}), (std::vector<std::string>{"includes", "no-library"}));
}

TEST(StaticCheckTest, FindingsNameLine) {
  auto f = StaticCheck(std::string(kGood) + "\nvoid g() { system(\"x\"); }", {"f", {}, true});
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].ToString(), "rule no-process (line 16): process control: 'system('");
}

TEST(StaticCheckTest, BannedNamesInRawStringsAndCommentsAreNotCode) {
  std::string src = std::string(kGood) + "const char* r = R\"d(fopen(\"x\") )\" system()\n)d\"; // fork()\n";
  auto f = StaticCheck(src, {"f", {}, true});
  for (const auto& x : f) ADD_FAILURE() << x.ToString();
  // ... but code after the raw string is code again.
  EXPECT_EQ(Rules(src + "void g() { system(\"x\"); }"), (std::vector<std::string>{"no-process"}));
}

TEST(StaticCheckTest, DefinitionsFollowTheScanner) {
  // noexcept, trailing return types and attributes are definitions.
  std::string kernel = "__global__ void k(float* y) { y[0] = 0; }\n";
  for (const char* def : {"void f(float* y, int n) noexcept { k<<<1, 1>>>(y); }",
                          "auto f(float* y, int n) -> void { k<<<1, 1>>>(y); }",
                          "[[maybe_unused]] static void f(float* y, int n) { k<<<1, 1>>>(y); }"}) {
    EXPECT_TRUE(Rules(kernel + def).empty()) << def;
  }
  // A prototype and a call are not.
  EXPECT_EQ(Rules(kernel + "void f(float* y, int n);\nvoid g(float* y) { f(y, 1); k<<<1, 1>>>(y); }"),
            (std::vector<std::string>{"defines-function"}));
  // Kernel form: a prototype of the kernel is no definition.
  auto kernel_only = [](const std::string& src) {
    std::vector<std::string> out;
    for (const auto& f : StaticCheck(src, {"k", {}, true, true})) out.push_back(f.rule);
    return out;
  };
  EXPECT_TRUE(kernel_only(kernel).empty());
  EXPECT_EQ(kernel_only("__global__ void k(float* y);\n"), (std::vector<std::string>{"defines-kernel"}));
}

TEST(StaticCheckTest, SourceTheLexerCannotReadIsRefused) {
  // An unterminated comment would hide the rest of the file from the rules.
  auto f = StaticCheck(std::string(kGood) + "/* open\nvoid g() { system(\"x\"); }\n", {"f", {}, true});
  ASSERT_FALSE(f.empty());
  EXPECT_EQ(f[0].ToString(), "rule well-formed (line 15): unterminated block comment");
  EXPECT_EQ(Rules(std::string(kGood) + "void g() { if (1) { }\n")[0], "well-formed");
  EXPECT_EQ(Rules(std::string(kGood) + "const char* s = R\"x(open\n")[0], "well-formed");
}

}  // namespace
}  // namespace regrapht::verify
