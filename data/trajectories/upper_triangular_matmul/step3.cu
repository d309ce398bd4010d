#include <cuda_runtime.h>
#include <cstddef>

#define TILE 16

// 16x16 shared-memory tiling with work skipping: tiles below the diagonal write
// zeros without computing, and the k loop only visits the band of k tiles that
// can hold non-zero products for this output tile.
__global__ void triu_mm_tiled(int n, const float* U, const float* V, float* W) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int i = blockIdx.y * TILE + ty;
  int j = blockIdx.x * TILE + tx;
  if (blockIdx.x < blockIdx.y) {
    // Every column of this tile is left of every row: the tile is below the
    // diagonal and entirely zero. Uniform per block, so no barrier is skipped
    // by only part of the block.
    if (i < n && j < n) W[(size_t)i * n + j] = 0.0f;
    return;
  }
  float s = 0.0f;
  // Only k tiles blockIdx.y .. blockIdx.x can contribute: p >= i needs
  // p >= 16*blockIdx.y, and p <= j needs p <= 16*blockIdx.x + 15.
  int t_end = min(n, (int)(blockIdx.x + 1) * TILE);
  for (int t = blockIdx.y * TILE; t < t_end; t += TILE) {
    int pa = t + tx;  // column of U loaded by this thread
    int pb = t + ty;  // row of V loaded by this thread
    As[ty][tx] = (i < n && pa < n && pa >= i) ? U[(size_t)i * n + pa] : 0.0f;
    Bs[ty][tx] = (pb < n && j < n && pb <= j) ? V[(size_t)pb * n + j] : 0.0f;
    __syncthreads();
    for (int q = 0; q < TILE; ++q) s += As[ty][q] * Bs[q][tx];
    __syncthreads();
  }
  if (i < n && j < n) W[(size_t)i * n + j] = (j >= i) ? s : 0.0f;
}

void triu_matmul(int n, const float* U, const float* V, float* W) {
  if (n <= 0) return;
  size_t bytes = (size_t)n * (size_t)n * sizeof(float);
  float *d_U = nullptr, *d_V = nullptr, *d_W = nullptr;
  cudaMalloc(&d_U, bytes);
  cudaMalloc(&d_V, bytes);
  cudaMalloc(&d_W, bytes);
  cudaMemcpy(d_U, U, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_V, V, bytes, cudaMemcpyHostToDevice);
  dim3 block(TILE, TILE);
  dim3 grid((unsigned)((n + TILE - 1) / TILE), (unsigned)((n + TILE - 1) / TILE));
  triu_mm_tiled<<<grid, block>>>(n, d_U, d_V, d_W);
  cudaMemcpy(W, d_W, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_U);
  cudaFree(d_V);
  cudaFree(d_W);
}
