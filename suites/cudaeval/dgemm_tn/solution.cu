#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

// Tiled DGEMM for C = A^T B. With A stored K x M, a slice of BK rows of A is
// already the transposed operand tile As[k][m]: both A and B slices are read
// along their rows (coalesced) and land in shared memory without any
// transposition. A 256-thread block computes a 64 x 64 tile of C, each thread
// a 4 x 4 register tile. To keep the shared-memory reads conflict-free the
// thread's four columns are {2tx, 2tx+1, 32+2tx, 32+2tx+1} (likewise rows), so
// each step reads two double2 of A and two double2 of B and 8 consecutive
// lanes touch 128 consecutive bytes. The next K slice is copied global ->
// shared with cp.async (zero-filled outside the matrices) into a second
// buffer while the current slice is multiplied. Every output accumulates its
// products in increasing k, as in the serial code.
#define BM 64
#define BN 64
#define BK 8
#define NTHREADS 256

__device__ __forceinline__ void cp_async_8(void* smem_dst, const void* gmem_src, bool valid) {
  unsigned dst = (unsigned)__cvta_generic_to_shared(smem_dst);
  int src_bytes = valid ? 8 : 0;  // 0 => the 8 destination bytes are zero-filled
  asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;\n" ::"r"(dst), "l"(gmem_src), "r"(src_bytes));
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
__device__ __forceinline__ void cp_async_wait_all() { asm volatile("cp.async.wait_group 0;\n" ::); }
__device__ __forceinline__ void cp_async_wait_one_pending() { asm volatile("cp.async.wait_group 1;\n" ::); }

__global__ void dgemm_tn_kernel(int M, int N, int K, const double* __restrict__ A, const double* __restrict__ B,
                                double* __restrict__ C) {
  __shared__ __align__(16) double As[2][BK][BM];
  __shared__ __align__(16) double Bs[2][BK][BN];

  const int tid = threadIdx.x;
  const int tx = tid % 16;
  const int ty = tid / 16;
  const int m0 = blockIdx.y * BM;
  const int n0 = blockIdx.x * BN;

  // Each thread copies (BK*BM)/256 = 2 elements of each slice.
  auto issue_slice = [&](int kt, int buf) {
    int k0 = kt * BK;
#pragma unroll
    for (int l = 0; l < (BK * BM) / NTHREADS; ++l) {
      int idx = tid + l * NTHREADS;
      int k = idx / BM, m = idx % BM;
      int gk = k0 + k, gm = m0 + m;
      bool ok = gk < K && gm < M;
      cp_async_8(&As[buf][k][m], ok ? (const void*)(A + (size_t)gk * M + gm) : (const void*)A, ok);
    }
#pragma unroll
    for (int l = 0; l < (BK * BN) / NTHREADS; ++l) {
      int idx = tid + l * NTHREADS;
      int k = idx / BN, n = idx % BN;
      int gk = k0 + k, gn = n0 + n;
      bool ok = gk < K && gn < N;
      cp_async_8(&Bs[buf][k][n], ok ? (const void*)(B + (size_t)gk * N + gn) : (const void*)B, ok);
    }
    cp_async_commit();
  };

  double acc[4][4];
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j) acc[i][j] = 0.0;

  const int numTiles = (K + BK - 1) / BK;
  if (numTiles > 0) issue_slice(0, 0);

  for (int kt = 0; kt < numTiles; ++kt) {
    const int cur = kt & 1;
    if (kt + 1 < numTiles) {
      issue_slice(kt + 1, cur ^ 1);  // buffer cur^1 was released by the barrier ending the previous step
      cp_async_wait_one_pending();    // slice kt has landed (for this thread's copies)
    } else {
      cp_async_wait_all();
    }
    __syncthreads();  // ... and for everybody's copies

#pragma unroll
    for (int k = 0; k < BK; ++k) {
      double2 a01 = *reinterpret_cast<const double2*>(&As[cur][k][2 * ty]);
      double2 a23 = *reinterpret_cast<const double2*>(&As[cur][k][32 + 2 * ty]);
      double2 b01 = *reinterpret_cast<const double2*>(&Bs[cur][k][2 * tx]);
      double2 b23 = *reinterpret_cast<const double2*>(&Bs[cur][k][32 + 2 * tx]);
      double a[4] = {a01.x, a01.y, a23.x, a23.y};
      double b[4] = {b01.x, b01.y, b23.x, b23.y};
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j] += a[i] * b[j];
    }
    __syncthreads();  // everyone is done reading buffer cur before it is refilled
  }

#pragma unroll
  for (int i = 0; i < 4; ++i) {
    int row = m0 + (i < 2 ? 2 * ty + i : 32 + 2 * ty + (i - 2));
    if (row >= M) continue;
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      int col = n0 + (j < 2 ? 2 * tx + j : 32 + 2 * tx + (j - 2));
      if (col < N) C[(size_t)row * N + col] = acc[i][j];
    }
  }
}

void dgemmTransA(std::vector<double> const& A, std::vector<double> const& B, std::vector<double>& C, int M,
                 int N, int K) {
  if (M <= 0 || N <= 0) return;
  int KK = K > 0 ? K : 0;
  size_t aElems = (size_t)KK * M, bElems = (size_t)KK * N, cElems = (size_t)M * N;
  double *dA = nullptr, *dB = nullptr, *dC = nullptr;
  cudaMalloc(&dA, (aElems > 0 ? aElems : 1) * sizeof(double));
  cudaMalloc(&dB, (bElems > 0 ? bElems : 1) * sizeof(double));
  cudaMalloc(&dC, cElems * sizeof(double));
  if (aElems > 0) cudaMemcpy(dA, A.data(), aElems * sizeof(double), cudaMemcpyHostToDevice);
  if (bElems > 0) cudaMemcpy(dB, B.data(), bElems * sizeof(double), cudaMemcpyHostToDevice);
  dim3 grid((unsigned)((N + BN - 1) / BN), (unsigned)((M + BM - 1) / BM));
  dgemm_tn_kernel<<<grid, NTHREADS>>>(M, N, KK, dA, dB, dC);
  cudaMemcpy(C.data(), dC, cElems * sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(dA);
  cudaFree(dB);
  cudaFree(dC);
}
