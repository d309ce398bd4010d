#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

// Register-blocked, shared-memory tiled DGEMM. A block of 16 x 16 threads owns a
// 64 x 64 tile of C; each thread accumulates a 4 x 4 sub-tile (rows ty + 16 i,
// columns tx + 16 j) over K in steps of 16. The A tile is stored transposed so
// that both operands are read from shared memory as broadcasts / consecutive
// doubles. Edges are zero-filled on load and masked on store.
constexpr int BM = 64, BN = 64, BK = 16, TS = 16;

__global__ void __launch_bounds__(256) gemm_tiled(const double* __restrict__ A, const double* __restrict__ B,
                                                  double* __restrict__ C, int M, int K, int N) {
  __shared__ double As[BK][BM + 1];
  __shared__ double Bs[BK][BN];
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * TS + tx;
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  double acc[4][4];
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j) acc[i][j] = 0.0;

  for (int k0 = 0; k0 < K; k0 += BK) {
#pragma unroll
    for (int r = 0; r < 4; ++r) {
      int e = tid + 256 * r;
      int row = e / BK, kk = e % BK;
      int gm = m0 + row, gk = k0 + kk;
      As[kk][row] = (gm < M && gk < K) ? A[(size_t)gm * K + gk] : 0.0;
      int kb = e / BN, col = e % BN;
      int gkb = k0 + kb, gn = n0 + col;
      Bs[kb][col] = (gkb < K && gn < N) ? B[(size_t)gkb * N + gn] : 0.0;
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
      double a[4], b[4];
#pragma unroll
      for (int i = 0; i < 4; ++i) a[i] = As[kk][ty + TS * i];
#pragma unroll
      for (int j = 0; j < 4; ++j) b[j] = Bs[kk][tx + TS * j];
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j] = fma(a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    int gm = m0 + ty + TS * i;
    if (gm >= M) continue;
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      int gn = n0 + tx + TS * j;
      if (gn < N) C[(size_t)gm * N + gn] = acc[i][j];
    }
  }
}

void gemm(std::vector<double> const& A, std::vector<double> const& B, std::vector<double> &C, size_t M, size_t K, size_t N) {
  if (M == 0 || N == 0) return;
  double *dA = nullptr, *dB = nullptr, *dC = nullptr;
  cudaMalloc(&dA, (M * K + 1) * sizeof(double));
  cudaMalloc(&dB, (K * N + 1) * sizeof(double));
  cudaMalloc(&dC, M * N * sizeof(double));
  cudaMemcpy(dA, A.data(), M * K * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemcpy(dB, B.data(), K * N * sizeof(double), cudaMemcpyHostToDevice);
  dim3 block(TS, TS);
  dim3 grid((unsigned)((N + BN - 1) / BN), (unsigned)((M + BM - 1) / BM));
  gemm_tiled<<<grid, block>>>(dA, dB, dC, (int)M, (int)K, (int)N);
  cudaMemcpy(C.data(), dC, M * N * sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(dA);
  cudaFree(dB);
  cudaFree(dC);
}
