#include <cuda_runtime.h>
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

// Persistent cooperative kernel: the co-resident grid strides over capacities
// and a grid-wide barrier separates the items, so all items run in one launch.
__global__ void knap_persistent(int n_items, int capacity, const int* __restrict__ weights,
                                const int* __restrict__ values, int* a, int* b) {
  cg::grid_group grid = cg::this_grid();
  int* cur = a;
  int* nxt = b;
  int start = blockIdx.x * blockDim.x + threadIdx.x, stride = gridDim.x * blockDim.x;
  for (int i = 0; i < n_items; ++i) {
    int w = weights[i], v = values[i];
    for (int c = start; c <= capacity; c += stride) {
      int best = cur[c];
      if (c >= w) best = max(best, cur[c - w] + v);
      nxt[c] = best;
    }
    grid.sync();
    int* t = cur;
    cur = nxt;
    nxt = t;
  }
}

int knapsack_best_value(int n_items, int capacity, const int* weights, const int* values) {
  if (capacity < 0) return 0;
  size_t bytes = (size_t)(capacity + 1) * sizeof(int);
  int *d_a = nullptr, *d_b = nullptr, *d_w = nullptr, *d_v = nullptr;
  cudaMalloc(&d_a, bytes);
  cudaMalloc(&d_b, bytes);
  cudaMemset(d_a, 0, bytes);
  if (n_items > 0) {
    cudaMalloc(&d_w, (size_t)n_items * sizeof(int));
    cudaMalloc(&d_v, (size_t)n_items * sizeof(int));
    cudaMemcpy(d_w, weights, (size_t)n_items * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_v, values, (size_t)n_items * sizeof(int), cudaMemcpyHostToDevice);
    int sms = 0, per_sm = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, knap_persistent, 256, 0);
    int needed = (capacity + 1 + 255) / 256;
    int grid = sms * (per_sm > 0 ? per_sm : 1);
    if (grid > needed) grid = needed;
    void* args[] = {&n_items, &capacity, &d_w, &d_v, &d_a, &d_b};
    cudaLaunchCooperativeKernel(knap_persistent, dim3(grid), dim3(256), args, 0, 0);
  }
  int result = 0;
  cudaMemcpy(&result, (n_items % 2 == 0 ? d_a : d_b) + capacity, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d_a);
  cudaFree(d_b);
  cudaFree(d_w);
  cudaFree(d_v);
  return result;
}
