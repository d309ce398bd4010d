// Bounds in shared memory: the neighbour read of the last thread falls one
// element past a __shared__ array.
#include <cuda_runtime.h>
#include <vector>
__global__ void k(const double* x, size_t n, double* out) {
  __shared__ double s[256];
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? x[i] * x[i] : 0.0;
  __syncthreads();
  double pair = (threadIdx.x % 2 == 0) ? s[threadIdx.x] + s[threadIdx.x + 1] : 0.0;
  double spill = threadIdx.x == 255 ? s[threadIdx.x + 1] * 0.0 : 0.0;
  atomicAdd(out, pair + spill);
}
double sumOfSquares(std::vector<double> const& x) {
  size_t n = x.size();
  if (n == 0) return 0.0;
  double *dx, *ds;
  cudaMalloc(&dx, n * sizeof(double));
  cudaMalloc(&ds, sizeof(double));
  cudaMemcpy(dx, x.data(), n * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemset(ds, 0, sizeof(double));
  k<<<(unsigned)((n + 255) / 256), 256>>>(dx, n, ds);
  double r = 0;
  cudaMemcpy(&r, ds, sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(ds);
  return r;
}
