#include <cuda_runtime.h>
#include <cstddef>

#define TS 32
#define WARPS 8

__device__ __forceinline__ double warp_sum(double v) {
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  return v;
}

// Same tile scheme, but the x values a warp needs are loaded once into
// registers: x[j] for the lane's column, and x[bi*32 + lane] for the tile's
// rows, from which x[i] of row r is broadcast with __shfl_sync(.., r).
__global__ void symv_tiles_regs(int n, const double* S, const double* x, double* y) {
  int bi = blockIdx.y, bj = blockIdx.x;
  if (bj > bi) return;
  __shared__ double colpart[WARPS][TS];
  int lane = threadIdx.x, w = threadIdx.y;
  int j = bj * TS + lane;
  int ilane = bi * TS + lane;
  double xj = (j < n) ? x[j] : 0.0;
  double xrow = (ilane < n) ? x[ilane] : 0.0;
  double colacc = 0.0;
  for (int r = w; r < TS; r += WARPS) {
    int i = bi * TS + r;
    double xi = __shfl_sync(0xffffffffu, xrow, r);
    double v = 0.0;
    if (i < n && j <= i) v = S[(size_t)i * n + j];
    double rowp = warp_sum(v * xj);
    if (lane == 0 && i < n) atomicAdd(&y[i], rowp);
    if (j < i) colacc += v * xi;  // v is 0 when i >= n
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
  symv_tiles_regs<<<grid, block>>>(n, d_S, d_x, d_y);
  cudaMemcpy(y, d_y, (size_t)n * sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(d_S);
  cudaFree(d_x);
  cudaFree(d_y);
}
