#include <cuda_runtime.h>
#include <cstddef>

#define TS 32     // tile edge
#define WARPS 8   // warps per block; warp w handles tile rows w, w+8, w+16, w+24

__device__ __forceinline__ double warp_sum(double v) {
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  return v;
}

// Tile (bi, bj) of the lower triangle is read once, row by row (lane = column,
// coalesced), and used twice: row sums give S[i][j] x[j] for y[i], and column
// sums give S[i][j] x[i] for y[j] (strictly below the diagonal only). Partial
// results are added into a zeroed y with atomicAdd.
__global__ void symv_tiles(int n, const double* S, const double* x, double* y) {
  int bi = blockIdx.y, bj = blockIdx.x;
  if (bj > bi) return;  // no stored data above the diagonal; uniform per block
  __shared__ double colpart[WARPS][TS];
  int lane = threadIdx.x, w = threadIdx.y;
  int j = bj * TS + lane;
  double colacc = 0.0;
  for (int r = w; r < TS; r += WARPS) {
    int i = bi * TS + r;
    double v = 0.0;
    if (i < n && j <= i) v = S[(size_t)i * n + j];
    double xj = (j < n) ? x[j] : 0.0;
    double rowp = warp_sum(v * xj);
    if (lane == 0 && i < n) atomicAdd(&y[i], rowp);
    if (i < n && j < i) colacc += v * x[i];
  }
  colpart[w][lane] = colacc;
  __syncthreads();
  if (w == 0 && j < n) {
    double s = 0.0;
    for (int q = 0; q < WARPS; ++q) s += colpart[q][lane];
    atomicAdd(&y[j], s);
  }
}

void symv_lower_dense(int n, const double* S, const double* x, double* y) {
  if (n <= 0) return;
  size_t s_bytes = (size_t)n * (size_t)n * sizeof(double);
  double *d_S = nullptr, *d_x = nullptr, *d_y = nullptr;
  cudaMalloc(&d_S, s_bytes);
  cudaMalloc(&d_x, (size_t)n * sizeof(double));
  cudaMalloc(&d_y, (size_t)n * sizeof(double));
  cudaMemcpy(d_S, S, s_bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_x, x, (size_t)n * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemset(d_y, 0, (size_t)n * sizeof(double));
  int nb = (n + TS - 1) / TS;
  dim3 block(TS, WARPS);
  dim3 grid((unsigned)nb, (unsigned)nb);
  symv_tiles<<<grid, block>>>(n, d_S, d_x, d_y);
  cudaMemcpy(y, d_y, (size_t)n * sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(d_S);
  cudaFree(d_x);
  cudaFree(d_y);
}
