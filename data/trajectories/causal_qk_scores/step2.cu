#include <cuda_runtime.h>
#include <cstddef>

#define TS 16

// 16 x 16 score tile per block; the d dimension is walked in 16-wide slices of
// the block's 16 query rows and 16 key rows staged in shared memory (key tile
// padded to 17 so the per-thread key rows fall in distinct banks).
__global__ void qk_tiled(int n, int d, float scale, const float* __restrict__ Q,
                         const float* __restrict__ Kt, float* __restrict__ S) {
  __shared__ float Qs[TS][TS];
  __shared__ float Ks[TS][TS + 1];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row0 = blockIdx.y * TS, col0 = blockIdx.x * TS;
  int i = row0 + ty, j = col0 + tx;
  float acc = 0.0f;
  for (int t = 0; t < d; t += TS) {
    int p = t + tx;
    Qs[ty][tx] = (i < n && p < d) ? Q[(size_t)i * d + p] : 0.0f;
    int kr = col0 + ty;
    Ks[ty][tx] = (kr < n && p < d) ? Kt[(size_t)kr * d + p] : 0.0f;
    __syncthreads();
    for (int q = 0; q < TS; ++q) acc += Qs[ty][q] * Ks[tx][q];
    __syncthreads();
  }
  if (i < n && j < n) S[(size_t)i * n + j] = (j <= i) ? scale * acc : 0.0f;
}

void masked_qk_scores(int n, int d, float scale, const float* Q, const float* Kt, float* S) {
  if (n <= 0) return;
  size_t bq = (size_t)n * d * sizeof(float), bs = (size_t)n * n * sizeof(float);
  float *d_Q, *d_K, *d_S;
  cudaMalloc(&d_Q, bq > 0 ? bq : sizeof(float));
  cudaMalloc(&d_K, bq > 0 ? bq : sizeof(float));
  cudaMalloc(&d_S, bs);
  cudaMemcpy(d_Q, Q, bq, cudaMemcpyHostToDevice);
  cudaMemcpy(d_K, Kt, bq, cudaMemcpyHostToDevice);
  dim3 block(TS, TS);
  dim3 grid((n + TS - 1) / TS, (n + TS - 1) / TS);
  qk_tiled<<<grid, block>>>(n, d, scale, d_Q, d_K, d_S);
  cudaMemcpy(S, d_S, bs, cudaMemcpyDeviceToHost);
  cudaFree(d_Q);
  cudaFree(d_K);
  cudaFree(d_S);
}
