#include <cuda_runtime.h>
#include <cstddef>
#include <cstdint>

// Warp-cooperative expansion. Each warp is responsible for 32 consecutive
// vertices: the lanes read their frontier flags (coalesced) and a ballot
// tells the warp which of them are active. Warps with no frontier vertex exit
// at once; otherwise the whole warp walks the edge lists of its frontier
// vertices one after another, 32 edges at a time, so a high-degree vertex no
// longer stalls 31 idle lanes. Discovering v writes the same values (level + 1
// and 1) whoever gets there first, so the concurrent writes need no atomics.
__global__ void bfs_expand_kernel(int n, const int* __restrict__ row_ptr, const int* __restrict__ col_idx,
                                  const uint8_t* __restrict__ frontier, int new_level, int* dist,
                                  uint8_t* next_frontier) {
  int lane = threadIdx.x & 31;
  long long warp_global = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  long long base = warp_global * 32;
  if (base >= n) return;  // uniform per warp
  int u_mine = (int)base + lane;
  bool active = (u_mine < n) && (__ldg(&frontier[u_mine]) != 0);
  unsigned mask = __ballot_sync(0xffffffffu, active);
  while (mask != 0) {
    int src_lane = __ffs(mask) - 1;
    mask &= mask - 1;
    int u = (int)base + src_lane;
    int start = __ldg(&row_ptr[u]);
    int end = __ldg(&row_ptr[u + 1]);
    for (int k = start + lane; k < end; k += 32) {
      int v = __ldg(&col_idx[k]);
      if (dist[v] < 0) {
        dist[v] = new_level;
        next_frontier[v] = 1;
      }
    }
  }
}

void bfsExpandFrontier(int n, const int* row_ptr, const int* col_idx, const uint8_t* frontier, int level,
                       int* dist, uint8_t* next_frontier) {
  if (n <= 0) return;
  int nnz = row_ptr[n];
  int *d_ptr = nullptr, *d_col = nullptr, *d_dist = nullptr;
  uint8_t *d_front = nullptr, *d_next = nullptr;
  cudaMalloc(&d_ptr, ((size_t)n + 1) * sizeof(int));
  cudaMalloc(&d_col, (nnz > 0 ? (size_t)nnz : 1) * sizeof(int));
  cudaMalloc(&d_dist, (size_t)n * sizeof(int));
  cudaMalloc(&d_front, (size_t)n);
  cudaMalloc(&d_next, (size_t)n);
  cudaMemcpy(d_ptr, row_ptr, ((size_t)n + 1) * sizeof(int), cudaMemcpyHostToDevice);
  if (nnz > 0) cudaMemcpy(d_col, col_idx, (size_t)nnz * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_dist, dist, (size_t)n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_front, frontier, (size_t)n, cudaMemcpyHostToDevice);
  cudaMemset(d_next, 0, (size_t)n);
  const int block = 256;
  size_t warps = ((size_t)n + 31) / 32;
  size_t grid = (warps * 32 + block - 1) / block;
  bfs_expand_kernel<<<(unsigned)grid, block>>>(n, d_ptr, d_col, d_front, level + 1, d_dist, d_next);
  cudaMemcpy(dist, d_dist, (size_t)n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(next_frontier, d_next, (size_t)n, cudaMemcpyDeviceToHost);
  cudaFree(d_ptr);
  cudaFree(d_col);
  cudaFree(d_dist);
  cudaFree(d_front);
  cudaFree(d_next);
}
