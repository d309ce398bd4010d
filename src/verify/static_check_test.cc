#include "verify/static_check.h"

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
  EXPECT_EQ(KernelNames(StripCommentsAndStrings(kGood)), (std::vector<std::string>{"k", "k2"}));
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
  EXPECT_EQ(KernelNames(StripCommentsAndStrings(src)), (std::vector<std::string>{"k1", "k2", "k3"}));
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

TEST(StaticCheckTest, StripKeepsLinesAndRawStrings) {
  std::string src = "a // x\nb /* y\n z */ c\nR\"d(fopen()\n)d\" e '\\'' f";
  std::string s = StripCommentsAndStrings(src);
  EXPECT_EQ(s.size(), src.size());
  EXPECT_EQ(std::count(s.begin(), s.end(), '\n'), std::count(src.begin(), src.end(), '\n'));
  EXPECT_EQ(s.find("fopen"), std::string::npos);
  EXPECT_NE(s.find(" e "), std::string::npos);
  EXPECT_NE(s.find("f"), std::string::npos);
}

}  // namespace
}  // namespace regrapht::verify
