#include <cstddef>

// Kernel form: launched once on an N x N grid of threads. Elimination steps
// depend on each other and one launch has no grid-wide barrier, so block
// (0, 0) solves the system alone and every other block returns at once.
// A is read-only and the launch gets no scratch memory, so the augmented
// matrix [A | b] (N rows of N + 1) is copied into a static device buffer,
// which bounds N at SOLVE_MAX_N (2048; ParEval's size is 1024).
// Blocked Gaussian elimination with partial pivoting, panel width SV_B = 32:
//   1. panel columns p0 .. p0+31 one by one: arg-max of |column k| from row k
//      down (ties to the lowest row), swap rows k and p (from column p0 on,
//      b included), scale the multipliers, update the rest of the panel;
//   2. U12: forward substitution with the unit-lower 32 x 32 block on the
//      columns right of the panel (b included), one column per thread;
//   3. trailing update A22 -= L21 U12 in 64 x 64 tiles through shared memory,
//      2 x 2 outputs per thread;
// then back substitution into x (column-oriented), with __syncthreads()
// between phases.
#define SOLVE_MAX_N 2048
#define SV_B 32
#define SV_T 64

__device__ double solve_scratch[(size_t)SOLVE_MAX_N * (SOLVE_MAX_N + 1)];

__global__ void solveLinearSystem(const double *A, const double *b, double *x, size_t N) {
  if (blockIdx.x != 0 || blockIdx.y != 0 || blockIdx.z != 0) return;
  if (N == 0 || N > SOLVE_MAX_N) return;
  __shared__ double Ls[SV_T][SV_B + 1];
  __shared__ double Us[SV_B][SV_T + 1];
  __shared__ double sv[1024];  // arg-max candidates, one per thread
  __shared__ int si[1024];
  const size_t nt = (size_t)blockDim.x * blockDim.y * blockDim.z;
  const size_t tid = threadIdx.x + (size_t)blockDim.x * (threadIdx.y + (size_t)blockDim.y * threadIdx.z);
  const size_t n = N, W = N + 1;
  double* M = solve_scratch;

  for (size_t e = tid; e < n * W; e += nt) {
    const size_t i = e / W, j = e % W;
    M[e] = j < n ? A[i * n + j] : b[i];
  }
  __syncthreads();

  for (size_t p0 = 0; p0 < n; p0 += SV_B) {
    const size_t pe = p0 + SV_B < n ? p0 + SV_B : n;
    // 1. panel with partial pivoting
    for (size_t k = p0; k < pe; ++k) {
      double best = -1.0;
      size_t bi = n;
      for (size_t i = k + tid; i < n; i += nt) {
        const double v = fabs(M[i * W + k]);
        if (v > best) { best = v; bi = i; }
      }
      // combine the per-thread candidates: lanes of warp 0 scan residue
      // classes, then thread 0 combines their results (lowest row on ties)
      sv[tid] = best;
      si[tid] = (int)bi;
      __syncthreads();
      if (tid < 32) {
        for (size_t s = tid + 32; s < nt; s += 32)
          if (sv[s] > best || (sv[s] == best && si[s] < (int)bi)) { best = sv[s]; bi = (size_t)si[s]; }
        sv[tid] = best;
        si[tid] = (int)bi;
      }
      __syncthreads();
      if (tid == 0) {
        const size_t used = nt < 32 ? nt : 32;
        for (size_t s = 1; s < used; ++s)
          if (sv[s] > best || (sv[s] == best && si[s] < (int)bi)) { best = sv[s]; bi = (size_t)si[s]; }
        si[0] = (int)bi;
      }
      __syncthreads();
      const size_t p = (size_t)si[0];
      if (p != k && p < n) {
        for (size_t j = p0 + tid; j < W; j += nt) {
          const double t = M[k * W + j];
          M[k * W + j] = M[p * W + j];
          M[p * W + j] = t;
        }
        __syncthreads();
      }
      const double pivot = M[k * W + k];
      for (size_t i = k + 1 + tid; i < n; i += nt) M[i * W + k] /= pivot;
      __syncthreads();
      const size_t w = pe - k - 1;
      if (w > 0) {
        const size_t count = (n - k - 1) * w;
        for (size_t e = tid; e < count; e += nt) {
          const size_t i = k + 1 + e / w, j = k + 1 + e % w;
          M[i * W + j] -= M[i * W + k] * M[k * W + j];
        }
        __syncthreads();
      }
    }
    // 2. U12 (columns pe .. N, the right-hand side included)
    for (size_t j = pe + tid; j < W; j += nt) {
      for (size_t k = p0; k < pe; ++k) {
        const double u = M[k * W + j];
        for (size_t i = k + 1; i < pe; ++i) M[i * W + j] -= M[i * W + k] * u;
      }
    }
    __syncthreads();
    if (pe >= n) break;
    // 3. trailing update: rows pe .. n-1, columns pe .. N
    const size_t rows = n - pe, cols = W - pe, bw = pe - p0;
    const size_t tr = (rows + SV_T - 1) / SV_T, tc = (cols + SV_T - 1) / SV_T;
    for (size_t t = 0; t < tr * tc; ++t) {
      const size_t r0 = pe + (t / tc) * SV_T, c0 = pe + (t % tc) * SV_T;
      for (size_t e = tid; e < SV_T * SV_B; e += nt) {
        const size_t r = e / SV_B, k = e % SV_B;
        Ls[r][k] = (r0 + r < n && k < bw) ? M[(r0 + r) * W + p0 + k] : 0.0;
        const size_t kk = e / SV_T, c = e % SV_T;
        Us[kk][c] = (kk < bw && c0 + c < W) ? M[(p0 + kk) * W + c0 + c] : 0.0;
      }
      __syncthreads();
      for (size_t mt = tid; mt < (SV_T / 2) * (SV_T / 2); mt += nt) {
        const size_t r = 2 * (mt / (SV_T / 2)), c = 2 * (mt % (SV_T / 2));
        double s00 = 0.0, s01 = 0.0, s10 = 0.0, s11 = 0.0;
#pragma unroll 8
        for (int k = 0; k < SV_B; ++k) {
          const double a0 = Ls[r][k], a1 = Ls[r + 1][k];
          const double b0 = Us[k][c], b1 = Us[k][c + 1];
          s00 = fma(a0, b0, s00);
          s01 = fma(a0, b1, s01);
          s10 = fma(a1, b0, s10);
          s11 = fma(a1, b1, s11);
        }
        const size_t gr = r0 + r, gc = c0 + c;
        if (gr < n) {
          if (gc < W) M[gr * W + gc] -= s00;
          if (gc + 1 < W) M[gr * W + gc + 1] -= s01;
        }
        if (gr + 1 < n) {
          if (gc < W) M[(gr + 1) * W + gc] -= s10;
          if (gc + 1 < W) M[(gr + 1) * W + gc + 1] -= s11;
        }
      }
      __syncthreads();
    }
  }

  // back substitution: x starts as the eliminated right-hand side
  for (size_t i = tid; i < n; i += nt) x[i] = M[i * W + n];
  __syncthreads();
  for (size_t i = n; i-- > 0;) {
    const double xi = x[i] / M[i * W + i];
    __syncthreads();  // everyone has read x[i] before it is overwritten
    if (tid == 0) x[i] = xi;
    for (size_t r = tid; r < i; r += nt) x[r] -= M[r * W + i] * xi;
    __syncthreads();
  }
}
