#include <cuda_runtime.h>
#include <vector>

// 1. Pack the adjacency matrix into bits (one warp ballot per 32 entries: 32x less data for
//    the search). 2. Level-synchronous bottom-up BFS, one kernel per level: one warp per
//    unvisited vertex ANDs its adjacency row with the previous frontier (bitset) and stops at
//    the first hit. Three frontier buffers rotate so each level kernel can clear the one the
//    next level will fill. A per-level status word tells the host when dest was reached or
//    the frontier died out; the answer is dist[dest] as the device left it (-1: unreachable).
__global__ void packBits(const int* __restrict__ A, int n, int W, unsigned* __restrict__ bits) {
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= n) return;  // warp-uniform: a warp is one row segment
  const int j = blockIdx.x * 32 + threadIdx.x;
  bool e = j < n && __ldg(&A[(size_t)i * n + j]) != 0;
  unsigned word = __ballot_sync(0xffffffffu, e);
  if (threadIdx.x == 0) bits[(size_t)i * W + blockIdx.x] = word;
}

__global__ void initSearch(int* dist, unsigned* frontiers, int n, int W, int source) {
  const int stride = gridDim.x * blockDim.x;
  for (int v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += stride) dist[v] = v == source ? 0 : -1;
  for (int w = blockIdx.x * blockDim.x + threadIdx.x; w < 3 * W; w += stride)
    frontiers[w] = (w == (source >> 5)) ? (1u << (source & 31)) : 0u;
}

__global__ void bfsLevel(const unsigned* __restrict__ bits, int n, int W, int level, int dest,
                         int* __restrict__ dist, unsigned* __restrict__ frontiers,
                         int* __restrict__ status) {
  const unsigned* prev = frontiers + (size_t)((level - 1) % 3) * W;
  unsigned* cur = frontiers + (size_t)(level % 3) * W;
  unsigned* nxt = frontiers + (size_t)((level + 1) % 3) * W;
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  const int nthreads = gridDim.x * blockDim.x;
  for (int w = tid; w < W; w += nthreads) nxt[w] = 0u;
  const int lane = threadIdx.x & 31;
  const int nwarps = nthreads >> 5;
  for (int v = tid >> 5; v < n; v += nwarps) {  // warp-uniform
    if (dist[v] >= 0) continue;
    const unsigned* row = bits + (size_t)v * W;
    bool found = false;
    for (int base = 0; base < W && !found; base += 32) {
      int w = base + lane;
      bool hit = w < W && (row[w] & prev[w]) != 0u;
      found = __any_sync(0xffffffffu, hit);
    }
    if (found && lane == 0) {
      dist[v] = level;
      atomicOr(&cur[v >> 5], 1u << (v & 31));
      atomicOr(&status[level], v == dest ? 3 : 1);
    }
  }
}

int shortestPathLength(std::vector<int> const& A, size_t N, int source, int dest) {
  const int n = (int)N, W = (n + 31) / 32;
  int *dA = nullptr, *dDist = nullptr, *dStatus = nullptr;
  unsigned *dBits = nullptr, *dFront = nullptr;
  cudaMalloc(&dA, N * N * sizeof(int));
  cudaMalloc(&dBits, (size_t)n * W * sizeof(unsigned));
  cudaMalloc(&dDist, N * sizeof(int));
  cudaMalloc(&dFront, 3 * (size_t)W * sizeof(unsigned));
  cudaMalloc(&dStatus, (N + 1) * sizeof(int));
  cudaMemcpy(dA, A.data(), N * N * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(dStatus, 0, (N + 1) * sizeof(int));
  initSearch<<<(n + 255) / 256, 256>>>(dDist, dFront, n, W, source);
  if (source != dest) {
    packBits<<<dim3(W, (n + 7) / 8), dim3(32, 8)>>>(dA, n, W, dBits);
    const int blocks = (n + 7) / 8;  // one warp per vertex, 8 warps per block
    for (int level = 1; level < n; ++level) {
      bfsLevel<<<blocks, 256>>>(dBits, n, W, level, dest, dDist, dFront, dStatus);
      int s = 0;
      cudaMemcpy(&s, dStatus + level, sizeof(int), cudaMemcpyDeviceToHost);
      if (s != 1) break;  // 0: frontier empty, 3: dest reached
    }
  }
  int result = -1;
  cudaMemcpy(&result, dDist + dest, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dA);
  cudaFree(dBits);
  cudaFree(dDist);
  cudaFree(dFront);
  cudaFree(dStatus);
  return result;
}
