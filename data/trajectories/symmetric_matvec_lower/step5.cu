#include <cuda_runtime.h>
#include <cstddef>

#define TS 32
#define WARPS 8
#define RPW (TS / WARPS)  // rows per warp = 4

// Only the nb*(nb+1)/2 tiles that hold data are launched: a 1-D grid whose
// block index is decoded into a lower-triangle tile, instead of an nb x nb
// grid in which half of the blocks start only to exit.
__global__ void symv_tri_tiles(int n, const double* __restrict__ S, const double* __restrict__ x,
                               double* __restrict__ y) {
  // Block t of the 1-D grid is lower-triangle tile (bi, bj) with
  // t = bi*(bi+1)/2 + bj and 0 <= bj <= bi: estimate bi from the square root,
  // then correct it with exact integer tests.
  long long t = blockIdx.x;
  long long b = (long long)((sqrt(8.0 * (double)t + 1.0) - 1.0) * 0.5);
  while (b * (b + 1) / 2 > t) --b;
  while ((b + 1) * (b + 2) / 2 <= t) ++b;
  int bi = (int)b;
  int bj = (int)(t - b * (b + 1) / 2);
  __shared__ double colpart[WARPS][TS];
  int lane = threadIdx.x, w = threadIdx.y;
  int j = bj * TS + lane;
  int ilane = bi * TS + lane;
  double xj = (j < n) ? x[j] : 0.0;
  double xrow = (ilane < n) ? x[ilane] : 0.0;

  double v[RPW];
#pragma unroll
  for (int q = 0; q < RPW; ++q) {
    int i = bi * TS + w + WARPS * q;
    v[q] = (i < n && j <= i) ? S[(size_t)i * n + j] : 0.0;
  }
  double rowp[RPW];
  double colacc = 0.0;
#pragma unroll
  for (int q = 0; q < RPW; ++q) {
    int r = w + WARPS * q;
    int i = bi * TS + r;
    double xi = __shfl_sync(0xffffffffu, xrow, r);
    rowp[q] = v[q] * xj;
    if (j < i) colacc += v[q] * xi;
  }
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) {
#pragma unroll
    for (int q = 0; q < RPW; ++q) rowp[q] += __shfl_down_sync(0xffffffffu, rowp[q], off);
  }
  if (lane == 0) {
#pragma unroll
    for (int q = 0; q < RPW; ++q) {
      int i = bi * TS + w + WARPS * q;
      if (i < n) atomicAdd(&y[i], rowp[q]);
    }
  }
  colpart[w][lane] = colacc;
  __syncthreads();
  if (w == 0 && j < n) {
    double s = 0.0;
#pragma unroll
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
  unsigned ntiles = (unsigned)((long long)nb * (nb + 1) / 2);  // lower-triangle tiles only
  dim3 grid(ntiles);
  symv_tri_tiles<<<grid, block>>>(n, d_S, d_x, d_y);
  cudaMemcpy(y, d_y, (size_t)n * sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(d_S);
  cudaFree(d_x);
  cudaFree(d_y);
}
