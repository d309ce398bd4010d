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
  int w = weights[0], v = values[0];
  for (int i = 0; i < n_items; ++i) {
    // fetch the next item now so its latency overlaps this item's pass
    int wn = 0, vn = 0;
    if (i + 1 < n_items) {
      wn = weights[i + 1];
      vn = values[i + 1];
    }
    for (int c = threadIdx.x; c <= capacity; c += blockDim.x) {
      int best = cur[c];
      if (c >= w) best = max(best, cur[c - w] + v);
      nxt[c] = best;
    }
    __syncthreads();
    int* t = cur;
    cur = nxt;
    nxt = t;
    w = wn;
    v = vn;
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
    cudaMemcpy(&result, ((n_items % 2 == 0) ? d_a : d_b) + capacity, sizeof(int), cudaMemcpyDeviceToHost);
    cudaFree(d_a);
    cudaFree(d_b);
  }
  cudaFree(d_w);
  cudaFree(d_v);
  cudaFree(d_res);
  return result;
}
