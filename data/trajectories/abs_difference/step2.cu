#include <cuda_runtime.h>
#include <cmath>

// Inputs are read once and never written: mark them const __restrict__ and
// load them through the read-only (non-coherent) data path with __ldg.
__global__ void absdiff_kernel(int n, const double* __restrict__ a, const double* __restrict__ b,
                               double* __restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = fabs(__ldg(a + i) - __ldg(b + i));
}

void absoluteDifference(int n, const double* a, const double* b, double* out) {
  if (n <= 0) return;
  size_t bytes = static_cast<size_t>(n) * sizeof(double);
  double *da = nullptr, *db = nullptr, *dout = nullptr;
  cudaMalloc(&da, bytes);
  cudaMalloc(&db, bytes);
  cudaMalloc(&dout, bytes);
  cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice);
  int block = 256;
  int grid = (n + block - 1) / block;
  absdiff_kernel<<<grid, block>>>(n, da, db, dout);
  cudaMemcpy(out, dout, bytes, cudaMemcpyDeviceToHost);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dout);
}
