// Reaches the CUDA driver API through the runtime's entry-point lookup, so
// its allocations bypass the driver's poisoning wrappers (fresh memory would
// read as zeros on a GPU) and its hooks. cudaGetDriverEntryPoint* is refused
// like cudaGetExportTable.
#include <cuda_runtime.h>

typedef int (*MemAlloc)(unsigned long long*, size_t);

__global__ void k(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

void saxpy(int n, float a, const float* x, float* y) {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult q;
  cudaGetDriverEntryPoint("cuMemAlloc", &fn, cudaEnableDefault, &q);
  unsigned long long dx = 0, dy = 0;
  reinterpret_cast<MemAlloc>(fn)(&dx, n * sizeof(float));
  reinterpret_cast<MemAlloc>(fn)(&dy, n * sizeof(float));
  float* px = reinterpret_cast<float*>(dx);
  float* py = reinterpret_cast<float*>(dy);
  cudaMemcpy(px, x, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(py, y, n * sizeof(float), cudaMemcpyHostToDevice);
  k<<<(n + 255) / 256, 256>>>(n, a, px, py);
  cudaMemcpy(y, py, n * sizeof(float), cudaMemcpyDeviceToHost);
}
