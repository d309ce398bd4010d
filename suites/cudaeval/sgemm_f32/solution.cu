#include <cuda_runtime.h>
#include <cstddef>

// Tiled SGEMM. A 256-thread block computes a 64 x 64 tile of C; each thread
// owns a 4 x 4 sub-block in registers. The K dimension is walked in slices of
// 16: the A slice (64 x 16) is read row-wise (coalesced) and stored transposed
// as As[k][m], the B slice (16 x 64) as Bs[k][n], so that the inner product
// step reads four A values and four B values with one float4 each. The A
// buffer rows are padded to 68 floats (keeps 16-byte alignment and spreads
// the transposing stores over banks). Two shared-memory buffers are used: the
// next slice is fetched from global memory into registers while the current
// one is multiplied, then stored to the other buffer, so one barrier per
// slice suffices. Out-of-range elements are loaded as zero; for every output
// the products are accumulated in increasing k, as in the serial code.
#define BM 64
#define BN 64
#define BK 16
#define TM 4
#define TN 4
#define NTHREADS 256
#define APAD 4
#define BPAD 4

__global__ void sgemm_tiled_kernel(int M, int N, int K, float alpha, const float* __restrict__ A, const float* __restrict__ B,
                   float beta, float* __restrict__ C) {
  __shared__ __align__(16) float As[2][BK][BM + APAD];
  __shared__ __align__(16) float Bs[2][BK][BN + BPAD];

  const int tid = threadIdx.x;
  const int tx = tid % (BN / TN);  // 0..15: column group
  const int ty = tid / (BN / TN);  // 0..15: row group
  const int m0 = blockIdx.y * BM;
  const int n0 = blockIdx.x * BN;

  float acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) acc[i][j] = 0.0f;

  float ra[(BM * BK) / NTHREADS];
  float rb[(BK * BN) / NTHREADS];

  const int numTiles = (K + BK - 1) / BK;

  // Global -> registers for slice kt (zeros outside the matrices).
  auto load_regs = [&](int kt) {
    int k0 = kt * BK;
#pragma unroll
    for (int l = 0; l < (BM * BK) / NTHREADS; ++l) {
      int idx = tid + l * NTHREADS;
      int m = idx / BK, k = idx % BK;
      int gm = m0 + m, gk = k0 + k;
      ra[l] = (gm < M && gk < K) ? A[(size_t)gm * K + gk] : 0.0f;
    }
#pragma unroll
    for (int l = 0; l < (BK * BN) / NTHREADS; ++l) {
      int idx = tid + l * NTHREADS;
      int k = idx / BN, n = idx % BN;
      int gk = k0 + k, gn = n0 + n;
      rb[l] = (gk < K && gn < N) ? B[(size_t)gk * N + gn] : 0.0f;
    }
  };
  // Registers -> shared buffer buf.
  auto store_smem = [&](int buf) {
#pragma unroll
    for (int l = 0; l < (BM * BK) / NTHREADS; ++l) {
      int idx = tid + l * NTHREADS;
      As[buf][idx % BK][idx / BK] = ra[l];
    }
#pragma unroll
    for (int l = 0; l < (BK * BN) / NTHREADS; ++l) {
      int idx = tid + l * NTHREADS;
      Bs[buf][idx / BN][idx % BN] = rb[l];
    }
  };

  if (numTiles > 0) {
    load_regs(0);
    store_smem(0);
  }
  __syncthreads();

  for (int kt = 0; kt < numTiles; ++kt) {
    const int cur = kt & 1;
    const bool has_next = (kt + 1) < numTiles;
    if (has_next) load_regs(kt + 1);  // in flight during the math below

#pragma unroll
    for (int k = 0; k < BK; ++k) {
      float4 a4 = *reinterpret_cast<const float4*>(&As[cur][k][ty * TM]);
      float4 b4 = *reinterpret_cast<const float4*>(&Bs[cur][k][tx * TN]);
      float a[TM] = {a4.x, a4.y, a4.z, a4.w};
      float b[TN] = {b4.x, b4.y, b4.z, b4.w};
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] += a[i] * b[j];
    }

    if (has_next) store_smem(cur ^ 1);  // buffer cur^1 was last read before the previous barrier
    __syncthreads();
  }

#pragma unroll
  for (int i = 0; i < TM; ++i) {
    int row = m0 + ty * TM + i;
    if (row >= M) continue;
#pragma unroll
    for (int j = 0; j < TN; ++j) {
      int col = n0 + tx * TN + j;
      if (col < N) {
        size_t idx = (size_t)row * N + col;
        C[idx] = alpha * acc[i][j] + beta * C[idx];
      }
    }
  }
}

void sgemmRowMajor(int M, int N, int K, float alpha, const float* A, const float* B, float beta, float* C) {
  if (M <= 0 || N <= 0) return;
  int KK = K > 0 ? K : 0;
  float *dA = nullptr, *dB = nullptr, *dC = nullptr;
  size_t aElems = (size_t)M * KK, bElems = (size_t)KK * N, cElems = (size_t)M * N;
  cudaMalloc(&dA, (aElems > 0 ? aElems : 1) * sizeof(float));
  cudaMalloc(&dB, (bElems > 0 ? bElems : 1) * sizeof(float));
  cudaMalloc(&dC, cElems * sizeof(float));
  if (aElems > 0) cudaMemcpy(dA, A, aElems * sizeof(float), cudaMemcpyHostToDevice);
  if (bElems > 0) cudaMemcpy(dB, B, bElems * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dC, C, cElems * sizeof(float), cudaMemcpyHostToDevice);
  dim3 grid((unsigned)((N + BN - 1) / BN), (unsigned)((M + BM - 1) / BM));
  sgemm_tiled_kernel<<<grid, NTHREADS>>>(M, N, KK, alpha, dA, dB, beta, dC);
  cudaMemcpy(C, dC, cElems * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(dA);
  cudaFree(dB);
  cudaFree(dC);
}
