// Planted cheats: candidates that a real GPU run (and the CPU emulator) must
// not pass. Shared by verify_gpu_test and emulate_test.
#pragma once

#include <string>
#include <vector>

namespace regrapht::testing_util {

// saxpy with the kernel guarded by `kernel_guard`; `body`, when given,
// replaces the host function's body.
inline std::string CheatSaxpy(const std::string& kernel_guard,
                              const std::string& extra_globals = "", const std::string& body = "") {
  return "#include <cuda_runtime.h>\n" + extra_globals +
         "__global__ void k(int n, float a, const float* x, float* y) {\n"
         "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (" +
         kernel_guard +
         ") y[i] = a * x[i] + y[i];\n}\n"
         "void saxpy(int n, float a, const float* x, float* y) {\n" +
         (body.empty()
              ? "  float *dx, *dy; size_t b = (size_t)n * sizeof(float);\n"
                "  cudaMalloc(&dx, b); cudaMalloc(&dy, b);\n"
                "  cudaMemcpy(dx, x, b, cudaMemcpyHostToDevice); cudaMemcpy(dy, y, b, "
                "cudaMemcpyHostToDevice);\n"
                "  k<<<(n + 255) / 256, 256>>>(n, a, dx, dy);\n"
                "  cudaMemcpy(y, dy, b, cudaMemcpyDeviceToHost); cudaFree(dx); cudaFree(dy);\n"
              : body) +
         "}\n";
}

struct PlantedCheat {
  const char* name;
  const char* problem;
  std::string source;
};

inline std::vector<PlantedCheat> PlantedCheats() {
  return {
      {"off by one", "saxpy", CheatSaxpy("i < n - 1")},
      {"skips work at large sizes", "saxpy", CheatSaxpy("i < n && (n < 100000 || i < n / 2)")},
      {"never writes its output", "spmv_csr",
       "#include <cuda_runtime.h>\n"
       "__global__ void k(int n, double* y) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i "
       "< n) y[i] = 0; }\n"
       "void spmv_csr(int n, const int* r, const int* c, const double* v, const double* x, double* "
       "y) {\n"
       "  double* d; cudaMalloc(&d, n * sizeof(double)); k<<<(n + 255) / 256, 256>>>(n, d); "
       "cudaFree(d);\n}\n"},
      {"caches results across calls", "saxpy",
       CheatSaxpy("i < n", "static float* g_cache = nullptr; static int g_n = -1;\n",
                  "  size_t b = (size_t)n * sizeof(float);\n"
                  "  if (g_n == n && g_cache) { cudaMemcpy(y, g_cache, b, cudaMemcpyDeviceToHost); "
                  "return; }\n"
                  "  float *dx, *dy; cudaMalloc(&dx, b); cudaMalloc(&dy, b);\n"
                  "  cudaMemcpy(dx, x, b, cudaMemcpyHostToDevice); cudaMemcpy(dy, y, b, "
                  "cudaMemcpyHostToDevice);\n"
                  "  k<<<(n + 255) / 256, 256>>>(n, a, dx, dy);\n"
                  "  cudaMemcpy(y, dy, b, cudaMemcpyDeviceToHost); cudaFree(dx);\n"
                  "  if (g_cache) cudaFree(g_cache);\n  g_cache = dy; g_n = n;\n")},
      {"returns the previous call's device buffer", "saxpy",
       CheatSaxpy(
           "i < n", "static float* g_prev = nullptr; static int g_prev_n = 0;\n",
           "  size_t b = (size_t)n * sizeof(float);\n"
           "  float *dx, *dy; cudaMalloc(&dx, b); cudaMalloc(&dy, b);\n"
           "  cudaMemcpy(dx, x, b, cudaMemcpyHostToDevice); cudaMemcpy(dy, y, b, "
           "cudaMemcpyHostToDevice);\n"
           "  k<<<(n + 255) / 256, 256>>>(n, a, dx, dy);\n"
           "  if (g_prev && g_prev_n == n) cudaMemcpy(y, g_prev, b, cudaMemcpyDeviceToHost);\n"
           "  else cudaMemcpy(y, dy, b, cudaMemcpyDeviceToHost);\n"
           "  cudaFree(dx); if (g_prev) cudaFree(g_prev); g_prev = dy; g_prev_n = n;\n")},
      {"reads uninitialised device memory", "sum_of_squares",
       "#include <cuda_runtime.h>\n#include <vector>\n"
       "__global__ void k(const double* x, size_t n, double* out) {\n"
       "  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; if (i < n) atomicAdd(out, x[i] "
       "* x[i]);\n}\n"
       "double sumOfSquares(std::vector<double> const& x) {\n"
       "  size_t n = x.size(); double *dx, *ds; cudaMalloc(&dx, n * sizeof(double)); "
       "cudaMalloc(&ds, sizeof(double));\n"
       "  cudaMemcpy(dx, x.data(), n * sizeof(double), cudaMemcpyHostToDevice);\n"
       "  k<<<(unsigned)((n + 255) / 256), 256>>>(dx, n, ds);\n"
       "  double r; cudaMemcpy(&r, ds, sizeof(double), cudaMemcpyDeviceToHost); cudaFree(dx); "
       "cudaFree(ds); return r;\n}\n"},
  };
}

}  // namespace regrapht::testing_util
