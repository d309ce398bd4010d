#include <cstddef>

// Kernel form: launched on an M x N grid of threads (x covers the rows of C,
// y its columns). With the harness's 32 x 32 blocks, block (bx, by) owns the
// 32 x 32 tile of C at rows 32 bx, columns 32 by; inside the block threadIdx.x
// walks the columns so that B and C are accessed coalesced, and A / B tiles of
// 32 x 32 pass through shared memory. Any other block shape: one thread per
// element of C, no tiling.
#define GEMM_T 32

__global__ void gemm(const double *A, const double *B, double *C, size_t M, size_t K, size_t N) {
  if (blockDim.x != GEMM_T || blockDim.y != GEMM_T) {
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t j = (size_t)blockIdx.y * blockDim.y + threadIdx.y;
    if (i < M && j < N) {
      double s = 0.0;
      for (size_t k = 0; k < K; ++k) s = fma(A[i * K + k], B[k * N + j], s);
      C[i * N + j] = s;
    }
    return;
  }
  __shared__ double As[GEMM_T][GEMM_T + 1];
  __shared__ double Bs[GEMM_T][GEMM_T + 1];
  const unsigned lr = threadIdx.y, lc = threadIdx.x;
  const size_t row = (size_t)blockIdx.x * GEMM_T + lr;
  const size_t col = (size_t)blockIdx.y * GEMM_T + lc;
  double s = 0.0;
  for (size_t k0 = 0; k0 < K; k0 += GEMM_T) {
    As[lr][lc] = (row < M && k0 + lc < K) ? A[row * K + k0 + lc] : 0.0;
    Bs[lr][lc] = (k0 + lr < K && col < N) ? B[(k0 + lr) * N + col] : 0.0;
    __syncthreads();
#pragma unroll 8
    for (int k = 0; k < GEMM_T; ++k) s = fma(As[lr][k], Bs[k][lc], s);
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = s;
}
