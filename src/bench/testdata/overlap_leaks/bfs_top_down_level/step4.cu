#include <cuda_runtime.h>

#define BLOCK 256
#define GROUP 8  // lanes per vertex

// Eight lanes per vertex: the group splits the adjacency list (lane s takes
// entries s, s+8, ...), so long and short lists are spread over several
// threads and a warp reads a vertex's neighbours contiguously. Counting is
// aggregated per warp and per block as before.
__global__ void bfs_level_agg(int n, const int* row_ptr, const int* col_idx, int level, int* dist, int* found) {
  __shared__ int block_count;
  if (threadIdx.x == 0) block_count = 0;
  __syncthreads();
  long long gid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  long long v = gid / GROUP;
  int sub = (int)(gid % GROUP);
  int mine = 0;
  if (v < n && dist[v] == level) {
    int end = row_ptr[v + 1];
    for (int k = row_ptr[v] + sub; k < end; k += GROUP) {
      int u = col_idx[k];
      if (dist[u] != -1) continue;
      if (atomicCAS(&dist[u], -1, level + 1) == -1) ++mine;
    }
  }
  int warp_total = __reduce_add_sync(0xffffffffu, mine);
  if ((threadIdx.x & 31) == 0 && warp_total != 0) atomicAdd(&block_count, warp_total);
  __syncthreads();
  if (threadIdx.x == 0 && block_count != 0) atomicAdd(found, block_count);
}

int bfs_expand_level(int n, const int* row_ptr, const int* col_idx, int level, int* dist) {
  if (n <= 0) return 0;
  int nnz = row_ptr[n];
  int *d_ptr = nullptr, *d_col = nullptr, *d_dist = nullptr, *d_found = nullptr;
  cudaMalloc(&d_ptr, (size_t)(n + 1) * sizeof(int));
  cudaMalloc(&d_col, (size_t)(nnz > 0 ? nnz : 1) * sizeof(int));
  cudaMalloc(&d_dist, (size_t)n * sizeof(int));
  cudaMalloc(&d_found, sizeof(int));
  cudaMemcpy(d_ptr, row_ptr, (size_t)(n + 1) * sizeof(int), cudaMemcpyHostToDevice);
  if (nnz > 0) cudaMemcpy(d_col, col_idx, (size_t)nnz * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_dist, dist, (size_t)n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(d_found, 0, sizeof(int));
  long long threads = (long long)n * GROUP;
  bfs_level_agg<<<(unsigned)((threads + BLOCK - 1) / BLOCK), BLOCK>>>(n, d_ptr, d_col, level, d_dist, d_found);
  int found = 0;
  cudaMemcpy(&found, d_found, sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(dist, d_dist, (size_t)n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d_ptr);
  cudaFree(d_col);
  cudaFree(d_dist);
  cudaFree(d_found);
  return found;
}
