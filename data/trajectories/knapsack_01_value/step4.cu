#include <cuda_runtime.h>
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

// Persistent cooperative fallback for large capacities, also two items per grid
// barrier (same four-way maximum as the single-block kernel).
__global__ void knap_persistent(int n_items, int capacity, const int* __restrict__ weights,
                                const int* __restrict__ values, int* a, int* b) {
  cg::grid_group grid = cg::this_grid();
  int* cur = a;
  int* nxt = b;
  int start = blockIdx.x * blockDim.x + threadIdx.x, stride = gridDim.x * blockDim.x;
  for (int i = 0; i < n_items; i += 2) {
    bool pair = i + 1 < n_items;
    int w1 = weights[i], v1 = values[i];
    int w2 = pair ? weights[i + 1] : 0, v2 = pair ? values[i + 1] : 0;
    for (int c = start; c <= capacity; c += stride) {
      int best = cur[c];
      if (c >= w1) best = max(best, cur[c - w1] + v1);
      if (pair) {
        if (c >= w2) best = max(best, cur[c - w2] + v2);
        if (c >= w1 + w2) best = max(best, cur[c - w1 - w2] + v1 + v2);
      }
      nxt[c] = best;
    }
    grid.sync();
    int* t = cur;
    cur = nxt;
    nxt = t;
  }
}

// Single-block kernel for capacities whose two DP rows fit in shared memory
// (up to about 227 KB): the rows never leave the SM, and a block barrier, far
// cheaper than a grid barrier, separates the passes.
__global__ void knap_block_smem(int n_items, int capacity, const int* __restrict__ weights,
                                const int* __restrict__ values, int* __restrict__ result) {
  extern __shared__ int rows[];
  int* cur = rows;
  int* nxt = rows + capacity + 1;
  for (int c = threadIdx.x; c <= capacity; c += blockDim.x) cur[c] = 0;
  __syncthreads();
  int i = 0;
  // Two items per pass: the best value over the subsets of {item i, item i+1} is
  // max(skip both, take i, take i+1, take both), all read from the row before
  // the pair, so one barrier (and one row write) covers two items.
  for (; i + 1 < n_items; i += 2) {
    int w1 = weights[i], v1 = values[i], w2 = weights[i + 1], v2 = values[i + 1];
    int w12 = w1 + w2, v12 = v1 + v2;
    for (int c = threadIdx.x; c <= capacity; c += blockDim.x) {
      int best = cur[c];
      if (c >= w1) best = max(best, cur[c - w1] + v1);
      if (c >= w2) best = max(best, cur[c - w2] + v2);
      if (c >= w12) best = max(best, cur[c - w12] + v12);
      nxt[c] = best;
    }
    __syncthreads();
    int* t = cur;
    cur = nxt;
    nxt = t;
  }
  if (i < n_items) {  // odd item count: one single-item pass
    int w = weights[i], v = values[i];
    for (int c = threadIdx.x; c <= capacity; c += blockDim.x) {
      int best = cur[c];
      if (c >= w) best = max(best, cur[c - w] + v);
      nxt[c] = best;
    }
    __syncthreads();
    int* t = cur;
    cur = nxt;
    nxt = t;
  }
  if (threadIdx.x == 0) *result = cur[capacity];
}

int knapsack_best_value(int n_items, int capacity, const int* weights, const int* values) {
  if (capacity < 0) return 0;
  if (n_items <= 0) return 0;
  size_t bytes = (size_t)(capacity + 1) * sizeof(int);
  int *d_w = nullptr, *d_v = nullptr, *d_res = nullptr;
  cudaMalloc(&d_w, (size_t)n_items * sizeof(int));
  cudaMalloc(&d_v, (size_t)n_items * sizeof(int));
  cudaMalloc(&d_res, sizeof(int));
  cudaMemcpy(d_w, weights, (size_t)n_items * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_v, values, (size_t)n_items * sizeof(int), cudaMemcpyHostToDevice);
  int optin = 0;
  cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0);
  size_t smem = 2 * bytes;
  int result = 0;
  if (smem <= (size_t)optin) {
    cudaFuncSetAttribute(knap_block_smem, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    knap_block_smem<<<1, 1024, smem>>>(n_items, capacity, d_w, d_v, d_res);
    cudaMemcpy(&result, d_res, sizeof(int), cudaMemcpyDeviceToHost);
  } else {
    // large capacities: persistent cooperative kernel over global rows
    int *d_a = nullptr, *d_b = nullptr;
    cudaMalloc(&d_a, bytes);
    cudaMalloc(&d_b, bytes);
    cudaMemset(d_a, 0, bytes);
    int sms = 0, per_sm = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, knap_persistent, 256, 0);
    int needed = (capacity + 1 + 255) / 256;
    int grid = sms * (per_sm > 0 ? per_sm : 1);
    if (grid > needed) grid = needed;
    void* args[] = {&n_items, &capacity, &d_w, &d_v, &d_a, &d_b};
    cudaLaunchCooperativeKernel(knap_persistent, dim3(grid), dim3(256), args, 0, 0);
    cudaMemcpy(&result, (((n_items / 2 + n_items % 2) % 2 == 0) ? d_a : d_b) + capacity, sizeof(int), cudaMemcpyDeviceToHost);
    cudaFree(d_a);
    cudaFree(d_b);
  }
  cudaFree(d_w);
  cudaFree(d_v);
  cudaFree(d_res);
  return result;
}
