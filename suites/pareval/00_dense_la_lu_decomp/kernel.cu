#include <cstddef>

// Kernel form: launched once on an N x N grid of threads. The elimination
// steps depend on each other and one launch has no grid-wide barrier, so
// block (0, 0) factorizes the whole matrix in place and every other block
// returns at once. To keep one block fast it uses the blocked right-looking
// algorithm (no pivoting), panel width LU_B = 32:
//   1. factor the panel (columns p0 .. p0+31, all rows below p0) column by
//      column: scale the multipliers, update the rest of the panel;
//   2. U12: forward substitution with the unit-lower 32 x 32 block, one
//      column per thread;
//   3. trailing update A22 -= L21 U12 in 64 x 64 tiles staged through shared
//      memory, each thread computing a 2 x 2 micro-tile,
// with __syncthreads() between phases. Each trailing element is read and
// written once per panel instead of once per column.
#define LU_B 32
#define LU_T 64

__global__ void luFactorize(double *A, size_t N) {
  if (blockIdx.x != 0 || blockIdx.y != 0 || blockIdx.z != 0) return;
  __shared__ double Ls[LU_T][LU_B + 1];
  __shared__ double Us[LU_B][LU_T + 1];
  const size_t nt = (size_t)blockDim.x * blockDim.y * blockDim.z;
  const size_t tid = threadIdx.x + (size_t)blockDim.x * (threadIdx.y + (size_t)blockDim.y * threadIdx.z);

  for (size_t p0 = 0; p0 < N; p0 += LU_B) {
    const size_t pe = p0 + LU_B < N ? p0 + LU_B : N;
    // 1. panel factorization
    for (size_t k = p0; k < pe; ++k) {
      const double pivot = A[k * N + k];
      for (size_t i = k + 1 + tid; i < N; i += nt) A[i * N + k] /= pivot;
      __syncthreads();
      const size_t w = pe - k - 1;
      if (w > 0) {
        const size_t count = (N - k - 1) * w;
        for (size_t e = tid; e < count; e += nt) {
          const size_t i = k + 1 + e / w, j = k + 1 + e % w;
          A[i * N + j] -= A[i * N + k] * A[k * N + j];
        }
        __syncthreads();
      }
    }
    if (pe >= N) break;
    // 2. U12 = L11^-1 A12 (unit lower triangular), one column per thread
    for (size_t j = pe + tid; j < N; j += nt) {
      for (size_t k = p0; k < pe; ++k) {
        const double u = A[k * N + j];
        for (size_t i = k + 1; i < pe; ++i) A[i * N + j] -= A[i * N + k] * u;
      }
    }
    __syncthreads();
    // 3. A22 -= L21 U12, tile by tile
    const size_t m = N - pe, bw = pe - p0;
    const size_t tiles = (m + LU_T - 1) / LU_T;
    for (size_t t = 0; t < tiles * tiles; ++t) {
      const size_t r0 = pe + (t / tiles) * LU_T, c0 = pe + (t % tiles) * LU_T;
      for (size_t e = tid; e < LU_T * LU_B; e += nt) {
        const size_t r = e / LU_B, k = e % LU_B;
        Ls[r][k] = (r0 + r < N && k < bw) ? A[(r0 + r) * N + p0 + k] : 0.0;
        const size_t kk = e / LU_T, c = e % LU_T;
        Us[kk][c] = (kk < bw && c0 + c < N) ? A[(p0 + kk) * N + c0 + c] : 0.0;
      }
      __syncthreads();
      for (size_t mt = tid; mt < (LU_T / 2) * (LU_T / 2); mt += nt) {
        const size_t r = 2 * (mt / (LU_T / 2)), c = 2 * (mt % (LU_T / 2));
        double s00 = 0.0, s01 = 0.0, s10 = 0.0, s11 = 0.0;
#pragma unroll 8
        for (int k = 0; k < LU_B; ++k) {
          const double a0 = Ls[r][k], a1 = Ls[r + 1][k];
          const double b0 = Us[k][c], b1 = Us[k][c + 1];
          s00 = fma(a0, b0, s00);
          s01 = fma(a0, b1, s01);
          s10 = fma(a1, b0, s10);
          s11 = fma(a1, b1, s11);
        }
        const size_t gr = r0 + r, gc = c0 + c;
        if (gr < N) {
          if (gc < N) A[gr * N + gc] -= s00;
          if (gc + 1 < N) A[gr * N + gc + 1] -= s01;
        }
        if (gr + 1 < N) {
          if (gc < N) A[(gr + 1) * N + gc] -= s10;
          if (gc + 1 < N) A[(gr + 1) * N + gc + 1] -= s11;
        }
      }
      __syncthreads();
    }
  }
}
