#include <cuda_runtime.h>

// Thread per edge with atomicMin, skipping the atomic whenever the candidate
// cannot improve the destination (most edges, after the first few).
__global__ void bf_relax_atomic(int m, const int* src, const int* dst, const int* weight, const int* dist,
                                int* new_dist) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= m) return;
  int cand = dist[src[e]] + weight[e];
  int v = dst[e];
  // new_dist only ever decreases, so a plain read gives an upper bound of the
  // current value: if cand is not below it, the atomic could not change it.
  if (cand < new_dist[v]) atomicMin(&new_dist[v], cand);
}

void bellman_ford_sweep(int n, int m, const int* src, const int* dst, const int* weight, const int* dist,
                        int* new_dist) {
  if (n <= 0) return;
  size_t me = (size_t)(m > 0 ? m : 1);
  int *d_src = nullptr, *d_dst = nullptr, *d_w = nullptr, *d_dist = nullptr, *d_new = nullptr;
  cudaMalloc(&d_src, me * sizeof(int));
  cudaMalloc(&d_dst, me * sizeof(int));
  cudaMalloc(&d_w, me * sizeof(int));
  cudaMalloc(&d_dist, (size_t)n * sizeof(int));
  cudaMalloc(&d_new, (size_t)n * sizeof(int));
  if (m > 0) {
    cudaMemcpy(d_src, src, (size_t)m * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_dst, dst, (size_t)m * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_w, weight, (size_t)m * sizeof(int), cudaMemcpyHostToDevice);
  }
  cudaMemcpy(d_dist, dist, (size_t)n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_new, d_dist, (size_t)n * sizeof(int), cudaMemcpyDeviceToDevice);
  if (m > 0) {
    int block = 256;
    bf_relax_atomic<<<(m + block - 1) / block, block>>>(m, d_src, d_dst, d_w, d_dist, d_new);
  }
  cudaMemcpy(new_dist, d_new, (size_t)n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d_src);
  cudaFree(d_dst);
  cudaFree(d_w);
  cudaFree(d_dist);
  cudaFree(d_new);
}
