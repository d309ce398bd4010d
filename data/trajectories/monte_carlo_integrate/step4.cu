#include <cuda_runtime.h>
#include <cmath>

#define BLOCK 256

__device__ __forceinline__ double warp_sum(double v) {
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  return v;
}

// Float evaluation with the SFU intrinsics __expf and __cosf instead of the
// accurate library calls; double accumulation and shuffle reduction as before.
__global__ void mc_partial(int n, const float* xs, const float* ys, double* total) {
  __shared__ double warp_tot[BLOCK / 32];
  double s = 0.0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    float x = xs[i], y = ys[i];
    // hardware approximations: __expf (a few ulp here), __cosf (abs error
    // ~4e-7 on [-pi, pi]; the argument 3x stays within [-3, 3])
    float f = __expf(-(x * x + y * y)) * __cosf(3.0f * x);
    s += (double)f;                                     // the long sum stays in double
  }
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  s = warp_sum(s);
  if (lane == 0) warp_tot[warp] = s;
  __syncthreads();
  if (warp == 0) {
    s = (lane < BLOCK / 32) ? warp_tot[lane] : 0.0;
    s = warp_sum(s);
    if (lane == 0) atomicAdd(total, s);
  }
}

double monte_carlo_estimate(int n, const float* xs, const float* ys) {
  if (n <= 0) return 0.0;
  float *d_x = nullptr, *d_y = nullptr;
  double* d_total = nullptr;
  cudaMalloc(&d_x, (size_t)n * sizeof(float));
  cudaMalloc(&d_y, (size_t)n * sizeof(float));
  cudaMalloc(&d_total, sizeof(double));
  cudaMemcpy(d_x, xs, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_y, ys, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(d_total, 0, sizeof(double));
  int want = (n + BLOCK - 1) / BLOCK;
  int grid = want < 1024 ? want : 1024;
  mc_partial<<<grid, BLOCK>>>(n, d_x, d_y, d_total);
  double total = 0.0;
  cudaMemcpy(&total, d_total, sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(d_x);
  cudaFree(d_y);
  cudaFree(d_total);
  return 4.0 * total / n;
}
