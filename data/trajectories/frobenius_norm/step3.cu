#include <cuda_runtime.h>
#include <cmath>
#include <cstddef>

#define BLOCK 256

__device__ __forceinline__ double warp_sum(double v) {
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  return v;
}

// Grid-stride accumulation; the block reduction now uses register shuffles:
// each warp folds its 32 values, the 8 warp totals meet in shared memory and
// warp 0 folds those. Two barriers-worth of work instead of eight.
__global__ void frob_shuffle(const float* A, size_t total, double* out) {
  __shared__ double warp_tot[BLOCK / 32];
  double s = 0.0;
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x; k < total; k += stride) {
    double v = A[k];
    s += v * v;
  }
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  s = warp_sum(s);
  if (lane == 0) warp_tot[warp] = s;
  __syncthreads();
  if (warp == 0) {
    s = (lane < BLOCK / 32) ? warp_tot[lane] : 0.0;
    s = warp_sum(s);
    if (lane == 0) atomicAdd(out, s);
  }
}

double frobenius_norm_f32(const float* A, int rows, int cols) {
  if (rows <= 0 || cols <= 0) return 0.0;
  size_t total = (size_t)rows * (size_t)cols;
  float* d_A = nullptr;
  double* d_sum = nullptr;
  cudaMalloc(&d_A, total * sizeof(float));
  cudaMalloc(&d_sum, sizeof(double));
  cudaMemcpy(d_A, A, total * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(d_sum, 0, sizeof(double));
  size_t want = (total + BLOCK - 1) / BLOCK;
  int grid = (int)(want < 1024 ? want : 1024);
  frob_shuffle<<<grid, BLOCK>>>(d_A, total, d_sum);
  double sum = 0.0;
  cudaMemcpy(&sum, d_sum, sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(d_A);
  cudaFree(d_sum);
  return std::sqrt(sum);
}
