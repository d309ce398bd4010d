// Control: a correct saxpy with the things honest candidates do (iostream,
// error checks with fprintf/exit, a static table built at start-up).
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <vector>
#include <cuda_runtime.h>
#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
  std::fprintf(stderr, "CUDA error %s\n", cudaGetErrorString(e)); std::exit(1); } } while (0)
static const std::vector<int> kBlockSizes = {128, 256};
__constant__ float c_unused[4];  // a global with C-style (unmangled) name, as constant memory has
int g_calls = 0;                 // a plain global counter
extern "C" void count_call() { ++g_calls; }  // a C-linkage helper whose name no library uses
__global__ void k(int n, float a, const float* x, float* y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) y[i] = a * x[i] + y[i];
}
void saxpy(int n, float a, const float* x, float* y) {
  if (n <= 0) return;
  count_call();
  float *dx, *dy;
  size_t b = (size_t)n * sizeof(float);
  CHECK(cudaMalloc(&dx, b)); CHECK(cudaMalloc(&dy, b));
  CHECK(cudaMemcpy(dx, x, b, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(dy, y, b, cudaMemcpyHostToDevice));
  int bs = kBlockSizes[1];
  k<<<(n + bs - 1) / bs, bs>>>(n, a, dx, dy);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(y, dy, b, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(dx)); CHECK(cudaFree(dy));
  if (n < 0) std::cerr << "unreachable\n";
}
