#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

#define WARPS 8
#define BLOCK (WARPS * 32)

// Persistent warp per node with reduce-then-scan; the node total is now a
// butterfly reduction of the chunk sums in registers (__shfl_xor_sync, every
// lane gets it). Offsets still come from the chunk sums in shared memory.
__global__ void cdf_node_warp(int n, const int* __restrict__ row_ptr, const float* __restrict__ w,
                              float* __restrict__ cdf, int* __restrict__ next) {
  __shared__ float part[WARPS][32];
  const unsigned full = 0xffffffffu;
  int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  (void)warp;
  while (true) {
    int i = 0;
    if (lane == 0) i = atomicAdd(next, 1);  // one queue ticket per warp
    i = __shfl_sync(full, i, 0);
    if (i >= n) break;  // uniform across the warp
    int b = row_ptr[i], e = row_ptr[i + 1];
    int chunk = (e - b + 31) / 32;
    int k0 = b + lane * chunk;
    int k1 = k0 + chunk < e ? k0 + chunk : e;
    float s = 0.0f;
    for (int k = k0; k < k1; ++k) s += w[k];
    float total = s;
#pragma unroll
    for (int d = 16; d > 0; d >>= 1) total += __shfl_xor_sync(full, total, d);
    part[warp][lane] = s;
    __syncwarp();
    float offset = 0.0f;
    for (int t = 0; t < lane; ++t) offset += part[warp][t];
    __syncwarp();
    float run = offset;
    for (int k = k0; k < k1; ++k) {
      run += w[k];
      cdf[k] = run / total;
    }
  }
}

void random_walk_cdf_csr(int n, const int* row_ptr, const float* weight, std::vector<float>& cdf) {
  int nnz = n > 0 ? row_ptr[n] : 0;
  cdf.assign((size_t)nnz, 0.0f);
  if (n <= 0 || nnz <= 0) return;
  int* d_ptr = nullptr;
  float *d_w = nullptr, *d_cdf = nullptr;
  cudaMalloc(&d_ptr, (size_t)(n + 1) * sizeof(int));
  cudaMalloc(&d_w, (size_t)nnz * sizeof(float));
  cudaMalloc(&d_cdf, (size_t)nnz * sizeof(float));
  cudaMemcpy(d_ptr, row_ptr, (size_t)(n + 1) * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_w, weight, (size_t)nnz * sizeof(float), cudaMemcpyHostToDevice);
  int* d_next = nullptr;  // work-queue head
  cudaMalloc(&d_next, sizeof(int));
  cudaMemset(d_next, 0, sizeof(int));
  int dev = 0, sms = 0, per_sm = 0;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, cdf_node_warp, BLOCK, 0);
  if (per_sm < 1) per_sm = 1;
  int grid = sms * per_sm;
  int needed = (n + WARPS - 1) / WARPS;
  if (grid > needed) grid = needed;
  if (grid < 1) grid = 1;
  cdf_node_warp<<<grid, BLOCK>>>(n, d_ptr, d_w, d_cdf, d_next);
  cudaMemcpy(cdf.data(), d_cdf, (size_t)nnz * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_ptr);
  cudaFree(d_w);
  cudaFree(d_cdf);
  cudaFree(d_next);
}
