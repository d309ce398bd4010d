#include <cuda_runtime.h>
#include <cstddef>

// Thread (tx, ty) of a 32 x 8 block owns column j = blockIdx.x*32 + tx and
// ROWS_PER_THREAD rows spaced 8 apart inside the block's 32 x 32 output tile.
// v[j] is loaded once into a register and reused for every row; u[i] is a
// warp-wide broadcast. Stores stay coalesced along the row.
#define ROWS_PER_THREAD 4

__global__ void outer_kernel(int m, int n, const float* __restrict__ u, const float* __restrict__ v,
                             float* __restrict__ M) {
  int j = blockIdx.x * 32 + threadIdx.x;
  int i0 = blockIdx.y * (8 * ROWS_PER_THREAD) + threadIdx.y;
  if (j >= n) return;
  float vj = v[j];
#pragma unroll
  for (int r = 0; r < ROWS_PER_THREAD; ++r) {
    int i = i0 + r * 8;
    if (i < m) M[(size_t)i * n + j] = u[i] * vj;
  }
}

void outerProductF32(int m, int n, const float* u, const float* v, float* M) {
  if (m <= 0 || n <= 0) return;
  float *du = nullptr, *dv = nullptr, *dM = nullptr;
  size_t mbytes = (size_t)m * (size_t)n * sizeof(float);
  cudaMalloc(&du, (size_t)m * sizeof(float));
  cudaMalloc(&dv, (size_t)n * sizeof(float));
  cudaMalloc(&dM, mbytes);
  cudaMemcpy(du, u, (size_t)m * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dv, v, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
  dim3 block(32, 8);
  dim3 grid((unsigned)((n + 31) / 32), (unsigned)((m + 8 * ROWS_PER_THREAD - 1) / (8 * ROWS_PER_THREAD)));
  outer_kernel<<<grid, block>>>(m, n, du, dv, dM);
  cudaMemcpy(M, dM, mbytes, cudaMemcpyDeviceToHost);
  cudaFree(du);
  cudaFree(dv);
  cudaFree(dM);
}
