#include <cuda_runtime.h>

#define SH_CELLS 11264  // 44 KB of int counters

__device__ __forceinline__ int cell_of(float x, float y, int gx, int gy) {
  int cx = (int)(x * gx);
  int cy = (int)(y * gy);
  cx = min(max(cx, 0), gx - 1);
  cy = min(max(cy, 0), gy - 1);
  return cy * gx + cx;
}

// Privatized histogram: each block counts its particles into a shared-memory
// copy of the grid (shared atomics), then adds its non-zero cells to the global
// counts. Used when the grid fits in shared memory.
__global__ void bin_shared(int n, const float* __restrict__ px, const float* __restrict__ py, int gx, int gy,
                           int* counts) {
  __shared__ int hist[SH_CELLS];
  int cells = gx * gy;
  for (int c = threadIdx.x; c < cells; c += blockDim.x) hist[c] = 0;
  __syncthreads();
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p < n) atomicAdd(&hist[cell_of(px[p], py[p], gx, gy)], 1);
  __syncthreads();
  for (int c = threadIdx.x; c < cells; c += blockDim.x) {
    int v = hist[c];
    if (v) atomicAdd(&counts[c], v);
  }
}

__global__ void bin_atomic(int n, const float* __restrict__ px, const float* __restrict__ py, int gx, int gy,
                           int* counts) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= n) return;
  atomicAdd(&counts[cell_of(px[p], py[p], gx, gy)], 1);
}

void count_particles_per_cell(int n, const float* px, const float* py, int gx, int gy, int* counts) {
  if (gx <= 0 || gy <= 0) return;
  size_t cells = (size_t)gx * gy;
  int* d_counts = nullptr;
  cudaMalloc(&d_counts, cells * sizeof(int));
  cudaMemset(d_counts, 0, cells * sizeof(int));
  if (n > 0) {
    float *d_x = nullptr, *d_y = nullptr;
    cudaMalloc(&d_x, (size_t)n * sizeof(float));
    cudaMalloc(&d_y, (size_t)n * sizeof(float));
    cudaMemcpy(d_x, px, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_y, py, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
    int block = 256;
    int grid = (n + block - 1) / block;
    if (cells <= SH_CELLS) bin_shared<<<grid, block>>>(n, d_x, d_y, gx, gy, d_counts);
    else bin_atomic<<<grid, block>>>(n, d_x, d_y, gx, gy, d_counts);
    cudaFree(d_x);
    cudaFree(d_y);
  }
  cudaMemcpy(counts, d_counts, cells * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d_counts);
}
