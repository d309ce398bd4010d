#include <cuda_runtime.h>
#include <cstddef>

// Blocked (left-looking) forward substitution. The right-hand sides are
// independent, so each block owns a chunk of CW = 16 columns and walks the
// rows in blocks of RB = 32:
//   1. update: the 32 x CW slab of B is reduced by L(rows, j) * X(j, cols) for
//      every already-solved row block j -- a small GEMM, done with 32 x 32 L
//      tiles and 32 x CW X tiles in shared memory, each thread holding two
//      rows of one column in registers;
//   2. diagonal block: the remaining 32 x 32 triangle is solved for the slab
//      by one warp, each lane substituting down its own column (no barriers
//      needed inside), and the rows are written to X.
// Threads of a warp cover consecutive columns, so B and X accesses are
// coalesced; the L tiles are padded to 33 columns. Every X entry subtracts
// its terms in increasing j and then divides, exactly like the serial code.
#define RB 32
#define CW 16
#define TY 16
#define ROWS_PER_THREAD (RB / TY)

__global__ void trsm_lower_kernel(int n, int nrhs, const double* __restrict__ L, const double* __restrict__ diag,
                                  const double* __restrict__ B, double* __restrict__ X) {
  __shared__ double Ls[RB][RB + 1];
  __shared__ double Xs[RB][CW];
  __shared__ double T[RB][CW];

  const int tx = threadIdx.x;  // column within chunk
  const int ty = threadIdx.y;  // row group
  const int tid = ty * CW + tx;
  const int col = blockIdx.x * CW + tx;
  const bool col_ok = col < nrhs;

  for (int i0 = 0; i0 < n; i0 += RB) {
    double acc[ROWS_PER_THREAD];
#pragma unroll
    for (int q = 0; q < ROWS_PER_THREAD; ++q) {
      int i = i0 + ty * ROWS_PER_THREAD + q;
      acc[q] = (i < n && col_ok) ? B[(size_t)i * nrhs + col] : 0.0;
    }

    // 1. Subtract the contributions of all solved row blocks, in increasing j.
    for (int j0 = 0; j0 < i0; j0 += RB) {
      for (int idx = tid; idx < RB * RB; idx += CW * TY) {
        int r = idx / RB, k = idx % RB;
        int i = i0 + r;
        Ls[r][k] = (i < n) ? L[(size_t)i * n + j0 + k] : 0.0;  // j0 + k < i0 <= n
      }
      for (int idx = tid; idx < RB * CW; idx += CW * TY) {
        int k = idx / CW, c = idx % CW;
        int gc = blockIdx.x * CW + c;
        Xs[k][c] = (gc < nrhs) ? X[(size_t)(j0 + k) * nrhs + gc] : 0.0;
      }
      __syncthreads();
#pragma unroll 8
      for (int k = 0; k < RB; ++k) {
        double xv = Xs[k][tx];
#pragma unroll
        for (int q = 0; q < ROWS_PER_THREAD; ++q) acc[q] -= Ls[ty * ROWS_PER_THREAD + q][k] * xv;
      }
      __syncthreads();
    }

    // 2. Diagonal block: stage its strictly-lower part and the updated slab.
    for (int idx = tid; idx < RB * RB; idx += CW * TY) {
      int r = idx / RB, k = idx % RB;
      int i = i0 + r;
      Ls[r][k] = (i < n && k < r) ? L[(size_t)i * n + i0 + k] : 0.0;
    }
#pragma unroll
    for (int q = 0; q < ROWS_PER_THREAD; ++q) T[ty * ROWS_PER_THREAD + q][tx] = acc[q];
    __syncthreads();

    if (ty == 0) {
      int rows = n - i0 < RB ? n - i0 : RB;
      for (int r = 0; r < rows; ++r) {
        double x = T[r][tx];
        for (int k = 0; k < r; ++k) x -= Ls[r][k] * T[k][tx];
        x = x / diag[i0 + r];
        T[r][tx] = x;  // only this lane reads column tx of T
        if (col_ok) X[(size_t)(i0 + r) * nrhs + col] = x;
      }
    }
    __syncthreads();  // X rows of this block are written before the next block reads them
  }
}

void lowerTriangularSolveMany(int n, int nrhs, const double* L, const double* diag, const double* B, double* X) {
  if (n <= 0 || nrhs <= 0) return;
  size_t lElems = (size_t)n * n, bElems = (size_t)n * nrhs;
  double *dL = nullptr, *dd = nullptr, *dB = nullptr, *dX = nullptr;
  cudaMalloc(&dL, lElems * sizeof(double));
  cudaMalloc(&dd, (size_t)n * sizeof(double));
  cudaMalloc(&dB, bElems * sizeof(double));
  cudaMalloc(&dX, bElems * sizeof(double));
  cudaMemcpy(dL, L, lElems * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemcpy(dd, diag, (size_t)n * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemcpy(dB, B, bElems * sizeof(double), cudaMemcpyHostToDevice);
  dim3 block(CW, TY);
  dim3 grid((unsigned)((nrhs + CW - 1) / CW));
  trsm_lower_kernel<<<grid, block>>>(n, nrhs, dL, dd, dB, dX);
  cudaMemcpy(X, dX, bElems * sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(dL);
  cudaFree(dd);
  cudaFree(dB);
  cudaFree(dX);
}
