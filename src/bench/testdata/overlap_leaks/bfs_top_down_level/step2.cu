#include <cuda_runtime.h>

// Thread per vertex with atomicCAS claiming; already-visited neighbours are
// skipped with an ordinary load, so atomics are issued only for candidates.
__global__ void bfs_level_thread(int n, const int* row_ptr, const int* col_idx, int level, int* dist, int* found) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  if (dist[v] != level) return;
  for (int k = row_ptr[v]; k < row_ptr[v + 1]; ++k) {
    int u = col_idx[k];
    // Most neighbours are already visited: a plain read filters them out
    // before the atomic. A stale -1 only costs a CAS that then fails.
    if (dist[u] != -1) continue;
    if (atomicCAS(&dist[u], -1, level + 1) == -1) atomicAdd(found, 1);
  }
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
  int block = 256;
  bfs_level_thread<<<(n + block - 1) / block, block>>>(n, d_ptr, d_col, level, d_dist, d_found);
  int found = 0;
  cudaMemcpy(&found, d_found, sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(dist, d_dist, (size_t)n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d_ptr);
  cudaFree(d_col);
  cudaFree(d_dist);
  cudaFree(d_found);
  return found;
}
