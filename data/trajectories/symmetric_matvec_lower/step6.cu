#include <cuda_runtime.h>
#include <cstddef>

#define TS 32
#define WARPS 8
#define RPW (TS / WARPS)  // rows per warp = 4

// Lower-triangle tiles only, decoded from a 1-D grid; the host now transfers
// only the part of S those tiles read (see the copy loop below).
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
  // Copy only what the kernel reads: for block row bi (rows 32*bi .. 32*bi+31)
  // the tiles touch columns 0 .. 32*bi+31, so one strided 2-D copy per block
  // row moves the lower triangle plus the diagonal tiles, about half of the
  // matrix. The device entries right of that band are never read.
  int nbr = (n + TS - 1) / TS;
  for (int bi = 0; bi < nbr; ++bi) {
    size_t row0 = (size_t)bi * TS;
    size_t rows = (size_t)n - row0 < (size_t)TS ? (size_t)n - row0 : (size_t)TS;
    size_t cols = row0 + TS < (size_t)n ? row0 + TS : (size_t)n;
    cudaMemcpy2D(d_S + row0 * n, (size_t)n * sizeof(double), S + row0 * n, (size_t)n * sizeof(double),
                 cols * sizeof(double), rows, cudaMemcpyHostToDevice);
  }
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
