#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

// Blocked Floyd-Warshall (three phases per 32-wide block of k), with the
// matrix resident on the device for the whole run:
//   phase 1: the diagonal tile (kb, kb) runs plain FW on itself in shared memory;
//   phase 2: the tiles of row kb and column kb relax through the diagonal tile;
//   phase 3: every other tile (i, j) takes min over k of col(i,k) + row(k,j),
//            which needs no barriers inside the k loop.
// Blocks are 32 x 8 threads; each thread owns four rows of one column (a
// warp spans a 32-int row: coalesced global access, conflict-free shared
// reads; the (i, k) operand is a broadcast). Elements outside the matrix are
// padded with a large INF and never written back. All arithmetic is integer,
// and the result equals the serial one (shortest path lengths are unique).
#define T 32
#define TYB 8
#define RPT (T / TYB)
#define INF_D (1 << 29)

__global__ void zero_diagonal_kernel(int* d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[(size_t)i * n + i] = 0;
}

__device__ __forceinline__ void load_tile(int s[T][T], const int* d, int n, int tr, int tc) {
  int c = tc * T + threadIdx.x;
#pragma unroll
  for (int q = 0; q < RPT; ++q) {
    int rl = threadIdx.y + q * TYB;
    int r = tr * T + rl;
    s[rl][threadIdx.x] = (r < n && c < n) ? d[(size_t)r * n + c] : INF_D;
  }
}

__device__ __forceinline__ void store_tile(int s[T][T], int* d, int n, int tr, int tc) {
  int c = tc * T + threadIdx.x;
#pragma unroll
  for (int q = 0; q < RPT; ++q) {
    int rl = threadIdx.y + q * TYB;
    int r = tr * T + rl;
    if (r < n && c < n) d[(size_t)r * n + c] = s[rl][threadIdx.x];
  }
}

__global__ void fw_phase1(int* d, int n, int kb) {
  __shared__ int t[T][T];
  load_tile(t, d, n, kb, kb);
  __syncthreads();
  const int j = threadIdx.x;
  for (int k = 0; k < T; ++k) {
#pragma unroll
    for (int q = 0; q < RPT; ++q) {
      int i = threadIdx.y + q * TYB;
      int cand = t[i][k] + t[k][j];
      if (cand < t[i][j]) t[i][j] = cand;
    }
    __syncthreads();
  }
  store_tile(t, d, n, kb, kb);
}

// blockIdx.y == 0: tile (kb, other) of the pivot row; == 1: tile (other, kb) of the pivot column.
__global__ void fw_phase2(int* d, int n, int kb) {
  int other = blockIdx.x;
  if (other >= kb) ++other;  // skip the diagonal tile
  __shared__ int piv[T][T];
  __shared__ int t[T][T];
  const bool is_row = (blockIdx.y == 0);
  int tr = is_row ? kb : other;
  int tc = is_row ? other : kb;
  load_tile(piv, d, n, kb, kb);
  load_tile(t, d, n, tr, tc);
  __syncthreads();
  const int j = threadIdx.x;
  for (int k = 0; k < T; ++k) {
#pragma unroll
    for (int q = 0; q < RPT; ++q) {
      int i = threadIdx.y + q * TYB;
      int cand = is_row ? piv[i][k] + t[k][j] : t[i][k] + piv[k][j];
      if (cand < t[i][j]) t[i][j] = cand;
    }
    __syncthreads();
  }
  store_tile(t, d, n, tr, tc);
}

__global__ void fw_phase3(int* d, int n, int kb) {
  int tr = blockIdx.y, tc = blockIdx.x;
  if (tr == kb || tc == kb) return;  // whole block leaves together
  __shared__ int colk[T][T];  // tile (tr, kb)
  __shared__ int rowk[T][T];  // tile (kb, tc)
  load_tile(colk, d, n, tr, kb);
  load_tile(rowk, d, n, kb, tc);
  const int j = threadIdx.x;
  const int c = tc * T + j;
  int cur[RPT];
#pragma unroll
  for (int q = 0; q < RPT; ++q) {
    int r = tr * T + threadIdx.y + q * TYB;
    cur[q] = (r < n && c < n) ? d[(size_t)r * n + c] : INF_D;
  }
  __syncthreads();
#pragma unroll 8
  for (int k = 0; k < T; ++k) {
    int rk = rowk[k][j];
#pragma unroll
    for (int q = 0; q < RPT; ++q) {
      int cand = colk[threadIdx.y + q * TYB][k] + rk;
      cur[q] = cand < cur[q] ? cand : cur[q];
    }
  }
#pragma unroll
  for (int q = 0; q < RPT; ++q) {
    int r = tr * T + threadIdx.y + q * TYB;
    if (r < n && c < n) d[(size_t)r * n + c] = cur[q];
  }
}

void allPairsShortestPaths(std::vector<int>& dist, int n) {
  if (n <= 0) return;
  size_t bytes = (size_t)n * n * sizeof(int);
  int* d = nullptr;
  cudaMalloc(&d, bytes);
  cudaMemcpy(d, dist.data(), bytes, cudaMemcpyHostToDevice);
  zero_diagonal_kernel<<<(n + 255) / 256, 256>>>(d, n);
  int nb = (n + T - 1) / T;
  dim3 block(T, TYB);
  for (int kb = 0; kb < nb; ++kb) {
    fw_phase1<<<1, block>>>(d, n, kb);
    if (nb > 1) {
      fw_phase2<<<dim3(nb - 1, 2), block>>>(d, n, kb);
      fw_phase3<<<dim3(nb, nb), block>>>(d, n, kb);
    }
  }
  cudaMemcpy(dist.data(), d, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d);
}
