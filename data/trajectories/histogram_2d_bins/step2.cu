#include <cuda_runtime.h>

__device__ __forceinline__ int cell_of(float x, float y, int nx, int ny) {
  int ix = static_cast<int>(x * nx);
  int iy = static_cast<int>(y * ny);
  if (ix >= nx) ix = nx - 1;
  if (iy >= ny) iy = ny - 1;
  return iy * nx + ix;
}

// Grid-stride loop over points with a bounded grid.
__global__ void hist2d_global(int n, const float* __restrict__ xs, const float* __restrict__ ys, int nx, int ny,
                              int* counts) {
  int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    atomicAdd(&counts[cell_of(xs[i], ys[i], nx, ny)], 1);
}

void jointHistogram2D(int n, const float* xs, const float* ys, int nx, int ny, int* counts) {
  int cells = nx * ny;
  if (cells <= 0) return;
  int* dcounts = nullptr;
  cudaMalloc(&dcounts, static_cast<size_t>(cells) * sizeof(int));
  cudaMemset(dcounts, 0, static_cast<size_t>(cells) * sizeof(int));
  if (n > 0) {
    float *dx = nullptr, *dy = nullptr;
    cudaMalloc(&dx, static_cast<size_t>(n) * sizeof(float));
    cudaMalloc(&dy, static_cast<size_t>(n) * sizeof(float));
    cudaMemcpy(dx, xs, static_cast<size_t>(n) * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dy, ys, static_cast<size_t>(n) * sizeof(float), cudaMemcpyHostToDevice);
    int block = 256;
    int grid = (n + block - 1) / block;
    if (grid > 1024) grid = 1024;
    hist2d_global<<<grid, block>>>(n, dx, dy, nx, ny, dcounts);
    cudaFree(dx);
    cudaFree(dy);
  }
  cudaMemcpy(counts, dcounts, static_cast<size_t>(cells) * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dcounts);
}
