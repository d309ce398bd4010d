#include <cuda_runtime.h>

// new_dist starts as a device-side copy of dist; then one thread per edge
// lowers new_dist[dst] with atomicMin (concurrent edges into the same vertex
// are resolved by the atomic; only old distances are read).
__global__ void bf_relax_atomic(int m, const int* src, const int* dst, const int* weight, const int* dist,
                                int* new_dist) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= m) return;
  int cand = dist[src[e]] + weight[e];
  atomicMin(&new_dist[dst[e]], cand);
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
