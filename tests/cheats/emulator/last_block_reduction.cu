// Control (must stay correct): the "last block" reduction. Each block writes
// its partial sum, fences, and takes a ticket; the block that draws the last
// ticket reads every partial. Legal CUDA: the fence orders the write before
// the ticket, and the reader's atomic comes after every other block's.
#include <cuda_runtime.h>
#include <vector>
__device__ unsigned int g_ticket = 0;
__global__ void k(const double* x, size_t n, double* partial, double* out) {
  __shared__ double s[256];
  __shared__ bool last;
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? x[i] * x[i] : 0.0;
  __syncthreads();
  for (unsigned st = blockDim.x / 2; st > 0; st >>= 1) {
    if (threadIdx.x < st) s[threadIdx.x] += s[threadIdx.x + st];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = s[0];
    __threadfence();
    unsigned t = atomicInc(&g_ticket, gridDim.x);
    last = (t == gridDim.x - 1);
  }
  __syncthreads();
  if (last && threadIdx.x == 0) {
    double total = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) total += partial[b];
    *out = total;
    g_ticket = 0;
  }
}
double sumOfSquares(std::vector<double> const& x) {
  size_t n = x.size();
  if (n == 0) return 0.0;
  unsigned blocks = (unsigned)((n + 255) / 256);
  double *dx, *dp, *ds;
  cudaMalloc(&dx, n * sizeof(double));
  cudaMalloc(&dp, blocks * sizeof(double));
  cudaMalloc(&ds, sizeof(double));
  cudaMemcpy(dx, x.data(), n * sizeof(double), cudaMemcpyHostToDevice);
  k<<<blocks, 256>>>(dx, n, dp, ds);
  double r = 0;
  cudaMemcpy(&r, ds, sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dp);
  cudaFree(ds);
  return r;
}
