#include <cuda_runtime.h>

// One item: every capacity c takes the better of skipping or taking the item.
__global__ void knap_item(int capacity, int w, int v, const int* cur, int* nxt) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c > capacity) return;
  int best = cur[c];
  if (c >= w) best = max(best, cur[c - w] + v);
  nxt[c] = best;
}

int knapsack_best_value(int n_items, int capacity, const int* weights, const int* values) {
  if (capacity < 0) return 0;
  size_t bytes = (size_t)(capacity + 1) * sizeof(int);
  int *d_a = nullptr, *d_b = nullptr;
  cudaMalloc(&d_a, bytes);
  cudaMalloc(&d_b, bytes);
  cudaMemset(d_a, 0, bytes);
  int blocks = (capacity + 1 + 255) / 256;
  for (int i = 0; i < n_items; ++i) {
    knap_item<<<blocks, 256>>>(capacity, weights[i], values[i], d_a, d_b);
    int* t = d_a;
    d_a = d_b;
    d_b = t;
  }
  int result = 0;
  cudaMemcpy(&result, d_a + capacity, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d_a);
  cudaFree(d_b);
  return result;
}
