#include <cuda_runtime.h>

__device__ __forceinline__ int cell_of(float x, float y, int gx, int gy) {
  int cx = (int)(x * gx);
  int cy = (int)(y * gy);
  cx = min(max(cx, 0), gx - 1);
  cy = min(max(cy, 0), gy - 1);
  return cy * gx + cx;
}

// One thread per particle: compute its cell and increment the global count
// with atomicAdd.
__global__ void bin_atomic(int n, const float* px, const float* py, int gx, int gy, int* counts) {
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
    bin_atomic<<<(n + block - 1) / block, block>>>(n, d_x, d_y, gx, gy, d_counts);
    cudaFree(d_x);
    cudaFree(d_y);
  }
  cudaMemcpy(counts, d_counts, cells * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d_counts);
}
