#include <cstddef>

// Single launch on an N x N grid (2-D blocks of 32 x 32: a warp is 32 consecutive columns of
// one row). Phase 1, all blocks: each warp packs its 32 matrix entries into one word of a
// bit-packed adjacency matrix with a ballot (the whole matrix is read once, at full
// bandwidth). Phase 2, the last block to finish (threadfence + ticket counter): a
// level-synchronous bottom-up BFS on the bits, frontier and visited sets as bitsets in shared
// memory; one warp per unvisited vertex ANDs its row with the frontier and stops at the first
// hit. It stops at the level that reaches dest (answer: that level) or when the frontier
// empties (answer: -1). Scratch lives in __device__ memory; limit: N <= kMaxN.
constexpr int kMaxN = 16384;
constexpr int kMaxW = kMaxN / 32;
__device__ unsigned int g_bits[(size_t)kMaxN * kMaxW];
__device__ unsigned int g_blocksDone;

__global__ void shortestPathLength(const int *A, size_t N, int source, int dest, int *pathLength) {
  const bool fits = N <= (size_t)kMaxN;
  const size_t W = (N + 31) / 32;
  const size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  const size_t i = (size_t)blockIdx.y * blockDim.y + threadIdx.y;
  const bool edge = fits && i < N && j < N && A[i * N + j] != 0;
  const unsigned word = __ballot_sync(0xffffffffu, edge);
  if (fits && threadIdx.x == 0 && i < N && j < N) g_bits[i * W + j / 32] = word;

  __shared__ bool isLast;
  __threadfence();
  __syncthreads();
  const unsigned tid = threadIdx.y * blockDim.x + threadIdx.x;
  if (tid == 0) isLast = atomicAdd(&g_blocksDone, 1u) == gridDim.x * gridDim.y - 1;
  __syncthreads();
  if (!isLast) return;

  // Last block: the packed matrix is complete.
  __shared__ unsigned visited[kMaxW], frontier[kMaxW], next[kMaxW];
  const unsigned nthreads = blockDim.x * blockDim.y;
  const unsigned lane = tid & 31, warp = tid >> 5, nwarps = nthreads >> 5;
  const int n = fits ? (int)N : 0;
  const int nw = (int)((n + 31) / 32);
  for (int w = tid; w < nw; w += nthreads) {
    unsigned b = (w == (source >> 5)) ? (1u << (source & 31)) : 0u;
    visited[w] = b;
    frontier[w] = b;
  }
  __syncthreads();
  int result = -1;
  if (source == dest) {
    result = 0;
  } else {
    const volatile unsigned* bits = g_bits;  // written by other blocks: read past L1
    for (int level = 1; n > 0; ++level) {
      for (int w = tid; w < nw; w += nthreads) next[w] = 0u;
      __syncthreads();
      for (int v = warp; v < n; v += nwarps) {  // warp-uniform
        if ((visited[v >> 5] >> (v & 31)) & 1u) continue;
        const volatile unsigned* row = bits + (size_t)v * nw;
        bool found = false;
        for (int base = 0; base < nw && !found; base += 32) {
          const int w = base + (int)lane;
          const bool hit = w < nw && (row[w] & frontier[w]) != 0u;
          found = __any_sync(0xffffffffu, hit);
        }
        if (found && lane == 0) atomicOr(&next[v >> 5], 1u << (v & 31));
      }
      __syncthreads();
      bool grew = false;
      for (int w = tid; w < nw; w += nthreads) {
        const unsigned x = next[w];
        grew |= x != 0u;
        visited[w] |= x;
        frontier[w] = x;
      }
      const bool reached = (next[dest >> 5] >> (dest & 31)) & 1u;
      const bool anyGrew = __syncthreads_or(grew);
      if (reached) { result = level; break; }
      if (!anyGrew) break;
    }
  }
  if (tid == 0) {
    *pathLength = result;
    atomicExch(&g_blocksDone, 0u);
  }
}
