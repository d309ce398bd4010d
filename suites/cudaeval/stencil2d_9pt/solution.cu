#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

// Trajectory:
// 1 thread_mapping: one output cell per thread on a 2-D grid of blocks.
// 2 memory_coalescing: threadIdx.x runs along a row (the contiguous
//   dimension) with 32-wide blocks, so each warp reads and writes 128
//   consecutive bytes of a row.
// 3 constant_memory: the nine weights are the same for every thread and are
//   read in lock-step, so they are broadcast from __constant__ memory.
// 4 shared_memory_tiling: a block loads its (8+2) x (32+2) input tile, halo
//   included, into shared memory once; the nine taps of every thread are then
//   read from shared memory instead of nine global loads. Cells outside the
//   grid are stored as zero, which matches the zero boundary.
constexpr int kTileX = 32;
constexpr int kTileY = 8;

__constant__ float c_stencil2d9_w[9];

__global__ void stencil2d9_kernel(const float* __restrict__ in, float* __restrict__ out, size_t rows, size_t cols) {
  __shared__ float tile[kTileY + 2][kTileX + 2];
  const long long row0 = (long long)blockIdx.y * kTileY - 1;
  const long long col0 = (long long)blockIdx.x * kTileX - 1;
  const int tid = threadIdx.y * kTileX + threadIdx.x;
  for (int t = tid; t < (kTileY + 2) * (kTileX + 2); t += kTileX * kTileY) {
    int ty = t / (kTileX + 2), tx = t % (kTileX + 2);
    long long gi = row0 + ty, gj = col0 + tx;
    float v = 0.0f;
    if (gi >= 0 && gj >= 0 && gi < (long long)rows && gj < (long long)cols) v = in[(size_t)gi * cols + (size_t)gj];
    tile[ty][tx] = v;
  }
  __syncthreads();
  size_t i = (size_t)blockIdx.y * kTileY + threadIdx.y;
  size_t j = (size_t)blockIdx.x * kTileX + threadIdx.x;
  if (i >= rows || j >= cols) return;
  float sum = 0.0f;
#pragma unroll
  for (int di = 0; di < 3; ++di) {
#pragma unroll
    for (int dj = 0; dj < 3; ++dj) sum += c_stencil2d9_w[di * 3 + dj] * tile[threadIdx.y + di][threadIdx.x + dj];
  }
  out[i * cols + j] = sum;
}

void stencil2d9(const std::vector<float>& grid, std::vector<float>& out, const std::vector<float>& weights,
                size_t rows, size_t cols) {
  if (rows == 0 || cols == 0) return;
  size_t bytes = rows * cols * sizeof(float);
  float *din = nullptr, *dout = nullptr;
  cudaMalloc(&din, bytes);
  cudaMalloc(&dout, bytes);
  cudaMemcpy(din, grid.data(), bytes, cudaMemcpyHostToDevice);
  cudaMemcpyToSymbol(c_stencil2d9_w, weights.data(), 9 * sizeof(float));
  dim3 block(kTileX, kTileY);
  dim3 blocks((unsigned)((cols + kTileX - 1) / kTileX), (unsigned)((rows + kTileY - 1) / kTileY));
  stencil2d9_kernel<<<blocks, block>>>(din, dout, rows, cols);
  cudaMemcpy(out.data(), dout, bytes, cudaMemcpyDeviceToHost);
  cudaFree(din);
  cudaFree(dout);
}
