// GPU tests of the harness (CTest label `gpu`). Without a GPU the program
// prints why and exits 77, which CTest reports as "Skipped".
//
// Expert solutions must be correct with a speedup; planted CUDA cheats (off
// by one, never writing the output, caching across calls, returning the
// previous call's device buffer, reading uninitialised device memory,
// skipping work at large sizes) must all be caught.
#include <gtest/gtest.h>

#include <cstdio>

#include "core/subprocess.h"
#include "regrapht/verify.h"
#include "verify/test_util.h"

namespace regrapht {
namespace {

using testing_util::LoadBundled;

VerifyOptions GpuOptions() {
  VerifyOptions o;
  o.cache_dir = testing_util::TestCacheDir().string();
  return o;
}

class VerifyGpuTest : public testing::Test {
 protected:
  std::unique_ptr<CommandRunner> runner_ = NewSubprocessRunner();
};

TEST_F(VerifyGpuTest, ExpertSolutionsAreCorrectAndFaster) {
  Verifier v(GpuOptions(), runner_.get());
  for (const char* name : {"saxpy", "jacobi2d", "sum_of_squares", "spmv_csr"}) {
    Problem p = LoadBundled(name);
    auto r = v.Verify(p, *p.solution_source);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(r->verdict, Verdict::kCorrect) << name << ": " << r->detail << "\n" << r->log;
    std::printf("[gpu] %-16s %-14s speedup %7.2fx  candidate %.4f ms  reference %.4f ms  gpu %s driver %s runtime %s\n",
                name, std::string(VerdictName(r->verdict)).c_str(), r->speedup,
                r->candidate_timing ? r->candidate_timing->median_ms : 0.0,
                r->reference_timing ? r->reference_timing->median_ms : 0.0, r->env.gpu_name.c_str(),
                r->env.driver_version.c_str(), r->env.cuda_runtime_version.c_str());
    EXPECT_GT(r->speedup, 0.0);
    EXPECT_FALSE(r->env.gpu_name.empty());
  }
}

// A saxpy body shared by the cheats: `PRE` runs before the copy-back.
std::string Saxpy(const std::string& kernel_guard, const std::string& extra_globals = "",
                  const std::string& body = "") {
  return "#include <cuda_runtime.h>\n" + extra_globals +
         "__global__ void k(int n, float a, const float* x, float* y) {\n"
         "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (" + kernel_guard + ") y[i] = a * x[i] + y[i];\n}\n"
         "void saxpy(int n, float a, const float* x, float* y) {\n" +
         (body.empty() ? "  float *dx, *dy; size_t b = (size_t)n * sizeof(float);\n"
                         "  cudaMalloc(&dx, b); cudaMalloc(&dy, b);\n"
                         "  cudaMemcpy(dx, x, b, cudaMemcpyHostToDevice); cudaMemcpy(dy, y, b, cudaMemcpyHostToDevice);\n"
                         "  k<<<(n + 255) / 256, 256>>>(n, a, dx, dy);\n"
                         "  cudaMemcpy(y, dy, b, cudaMemcpyDeviceToHost); cudaFree(dx); cudaFree(dy);\n"
                       : body) +
         "}\n";
}

struct GpuCheat {
  const char* name;
  const char* problem;
  std::string source;
};

std::vector<GpuCheat> Cheats() {
  return {
      {"off by one", "saxpy", Saxpy("i < n - 1")},
      {"skips work at large sizes", "saxpy", Saxpy("i < n && (n < 100000 || i < n / 2)")},
      {"never writes its output", "spmv_csr",
       "#include <cuda_runtime.h>\n"
       "__global__ void k(int n, double* y) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = 0; }\n"
       "void spmv_csr(int n, const int* r, const int* c, const double* v, const double* x, double* y) {\n"
       "  double* d; cudaMalloc(&d, n * sizeof(double)); k<<<(n + 255) / 256, 256>>>(n, d); cudaFree(d);\n}\n"},
      {"caches results across calls", "saxpy",
       Saxpy("i < n", "static float* g_cache = nullptr; static int g_n = -1;\n",
             "  size_t b = (size_t)n * sizeof(float);\n"
             "  if (g_n == n && g_cache) { cudaMemcpy(y, g_cache, b, cudaMemcpyDeviceToHost); return; }\n"
             "  float *dx, *dy; cudaMalloc(&dx, b); cudaMalloc(&dy, b);\n"
             "  cudaMemcpy(dx, x, b, cudaMemcpyHostToDevice); cudaMemcpy(dy, y, b, cudaMemcpyHostToDevice);\n"
             "  k<<<(n + 255) / 256, 256>>>(n, a, dx, dy);\n"
             "  cudaMemcpy(y, dy, b, cudaMemcpyDeviceToHost); cudaFree(dx);\n"
             "  if (g_cache) cudaFree(g_cache);\n  g_cache = dy; g_n = n;\n")},
      {"returns the previous call's device buffer", "saxpy",
       Saxpy("i < n", "static float* g_prev = nullptr; static int g_prev_n = 0;\n",
             "  size_t b = (size_t)n * sizeof(float);\n"
             "  float *dx, *dy; cudaMalloc(&dx, b); cudaMalloc(&dy, b);\n"
             "  cudaMemcpy(dx, x, b, cudaMemcpyHostToDevice); cudaMemcpy(dy, y, b, cudaMemcpyHostToDevice);\n"
             "  k<<<(n + 255) / 256, 256>>>(n, a, dx, dy);\n"
             "  if (g_prev && g_prev_n == n) cudaMemcpy(y, g_prev, b, cudaMemcpyDeviceToHost);\n"
             "  else cudaMemcpy(y, dy, b, cudaMemcpyDeviceToHost);\n"
             "  cudaFree(dx); if (g_prev) cudaFree(g_prev); g_prev = dy; g_prev_n = n;\n")},
      {"reads uninitialised device memory", "sum_of_squares",
       "#include <cuda_runtime.h>\n#include <vector>\n"
       "__global__ void k(const double* x, size_t n, double* out) {\n"
       "  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; if (i < n) atomicAdd(out, x[i] * x[i]);\n}\n"
       "double sumOfSquares(std::vector<double> const& x) {\n"
       "  size_t n = x.size(); double *dx, *ds; cudaMalloc(&dx, n * sizeof(double)); cudaMalloc(&ds, sizeof(double));\n"
       "  cudaMemcpy(dx, x.data(), n * sizeof(double), cudaMemcpyHostToDevice);\n"
       "  k<<<(unsigned)((n + 255) / 256), 256>>>(dx, n, ds);\n"
       "  double r; cudaMemcpy(&r, ds, sizeof(double), cudaMemcpyDeviceToHost); cudaFree(dx); cudaFree(ds); return r;\n}\n"},
  };
}

TEST_F(VerifyGpuTest, PlantedCheatsAreCaught) {
  Verifier v(GpuOptions(), runner_.get());
  for (const auto& c : Cheats()) {
    auto r = v.Verify(LoadBundled(c.problem), c.source);
    ASSERT_TRUE(r.ok()) << c.name << ": " << r.status().ToString();
    std::printf("[gpu] cheat %-42s -> %-16s %s\n", c.name, std::string(VerdictName(r->verdict)).c_str(),
                r->detail.c_str());
    EXPECT_NE(r->verdict, Verdict::kCorrect) << c.name << ": " << r->detail;
    EXPECT_NE(r->verdict, Verdict::kCompiledOnly) << c.name;
    EXPECT_NE(r->verdict, Verdict::kCompileError) << c.name << ": " << r->log;
    EXPECT_NE(r->verdict, Verdict::kStaticReject) << c.name << ": " << r->detail;
  }
}

}  // namespace
}  // namespace regrapht

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  auto runner = regrapht::NewSubprocessRunner();
  regrapht::Verifier v(regrapht::GpuOptions(), runner.get());
  regrapht::Problem p = regrapht::testing_util::LoadBundled("saxpy");
  auto probe = v.CompileOnly(p, *p.solution_source);
  if (!probe.ok()) {
    std::printf("SKIPPED: cannot build the GPU probe: %s\n", probe.status().ToString().c_str());
    return 77;
  }
  regrapht::VerifyOptions quick = regrapht::GpuOptions();
  quick.timing = false;
  regrapht::Verifier qv(quick, runner.get());
  auto r = qv.Verify(p, *p.solution_source);
  if (r.ok() && r->verdict == regrapht::Verdict::kCompiledOnly) {
    std::printf("SKIPPED: no GPU: %s\n", r->detail.c_str());
    return 77;
  }
  return RUN_ALL_TESTS();
}
