#include <cuda_runtime.h>
#include <cstddef>

#define TILE 16

// 16x16 output tiles. For each 16-wide slice of the k dimension the block
// stages 16 rows of A for its i-range (As) and 16 rows of A for its j-range
// (Bs) in shared memory, so each A element is read from DRAM once per tile.
__global__ void syrk_lower_tiled(int n, int k, const float* A, float* C) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int i = blockIdx.y * TILE + ty;
  int j = blockIdx.x * TILE + tx;
  int jrow = blockIdx.x * TILE + ty;  // row of A this thread loads into Bs
  float s = 0.0f;
  for (int t = 0; t < k; t += TILE) {
    int p = t + tx;
    As[ty][tx] = (i < n && p < k) ? A[(size_t)i * k + p] : 0.0f;
    Bs[ty][tx] = (jrow < n && p < k) ? A[(size_t)jrow * k + p] : 0.0f;
    __syncthreads();
    for (int q = 0; q < TILE; ++q) s += As[ty][q] * Bs[tx][q];
    __syncthreads();
  }
  if (i < n && j < n) C[(size_t)i * n + j] = (j <= i) ? s : 0.0f;
}

void syrk_lower_aat(int n, int k, const float* A, float* C) {
  if (n <= 0) return;
  size_t a_elems = (size_t)n * (size_t)(k > 0 ? k : 1);
  size_t c_bytes = (size_t)n * (size_t)n * sizeof(float);
  float *d_A = nullptr, *d_C = nullptr;
  cudaMalloc(&d_A, a_elems * sizeof(float));
  cudaMalloc(&d_C, c_bytes);
  if (k > 0) cudaMemcpy(d_A, A, (size_t)n * k * sizeof(float), cudaMemcpyHostToDevice);
  dim3 block(TILE, TILE);
  dim3 grid((unsigned)((n + TILE - 1) / TILE), (unsigned)((n + TILE - 1) / TILE));
  syrk_lower_tiled<<<grid, block>>>(n, k, d_A, d_C);
  cudaMemcpy(C, d_C, c_bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_A);
  cudaFree(d_C);
}
