// Wrong only for one value of a scalar inside the spec's range: at the last
// level the spec allows (level = 9) it takes a "shortcut" that writes the
// current level instead of the next. The spec's random cases draw level from
// [2, 9] and may never hit 9; the edge cases test every scalar at its bounds.
#include <cuda_runtime.h>

#include <cstdint>

__global__ void expand(int n, const int* row_ptr, const int* col_idx, const uint8_t* frontier, int level, int* dist,
                       uint8_t* next) {
  int u = blockIdx.x * blockDim.x + threadIdx.x;
  if (u >= n || !frontier[u]) return;
  int write = level == 9 ? level : level + 1;
  for (int k = row_ptr[u]; k < row_ptr[u + 1]; ++k) {
    int v = col_idx[k];
    if (dist[v] < 0) {  // every writer stores the same values
      dist[v] = write;
      next[v] = 1;
    }
  }
}

__global__ void clear(int n, uint8_t* next) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) next[v] = 0;
}

void bfsExpandFrontier(int n, const int* row_ptr, const int* col_idx, const uint8_t* frontier, int level, int* dist,
                       uint8_t* next_frontier) {
  if (n <= 0) return;
  int m = row_ptr[n];
  int *d_rp, *d_ci, *d_dist;
  uint8_t *d_f, *d_next;
  cudaMalloc(&d_rp, (n + 1) * sizeof(int));
  cudaMalloc(&d_ci, (m > 0 ? m : 1) * sizeof(int));
  cudaMalloc(&d_dist, n * sizeof(int));
  cudaMalloc(&d_f, n);
  cudaMalloc(&d_next, n);
  cudaMemcpy(d_rp, row_ptr, (n + 1) * sizeof(int), cudaMemcpyHostToDevice);
  if (m > 0) cudaMemcpy(d_ci, col_idx, m * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_dist, dist, n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_f, frontier, n, cudaMemcpyHostToDevice);
  clear<<<(n + 255) / 256, 256>>>(n, d_next);
  expand<<<(n + 255) / 256, 256>>>(n, d_rp, d_ci, d_f, level, d_dist, d_next);
  cudaMemcpy(dist, d_dist, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(next_frontier, d_next, n, cudaMemcpyDeviceToHost);
  cudaFree(d_rp);
  cudaFree(d_ci);
  cudaFree(d_dist);
  cudaFree(d_f);
  cudaFree(d_next);
}
