#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

#define BLOCK 128

// Persistent kernel: only as many blocks as fit on the GPU at once are
// launched, and every thread keeps taking the next node from a global queue
// (atomicAdd on a counter) until the nodes run out, so a thread that drew a
// short adjacency list immediately takes another instead of idling.
__global__ void cdf_node_persistent(int n, const int* __restrict__ row_ptr, const float* __restrict__ w,
                                    float* __restrict__ cdf, int* __restrict__ next) {
  while (true) {
    int i = atomicAdd(next, 1);
    if (i >= n) break;
    int b = row_ptr[i], e = row_ptr[i + 1];
    float total = 0.0f;
    for (int k = b; k < e; ++k) total += w[k];
    float run = 0.0f;
    for (int k = b; k < e; ++k) {
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
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, cdf_node_persistent, BLOCK, 0);
  if (per_sm < 1) per_sm = 1;
  int grid = sms * per_sm;
  int needed = (n + BLOCK - 1) / BLOCK;
  if (grid > needed) grid = needed;
  if (grid < 1) grid = 1;
  cdf_node_persistent<<<grid, BLOCK>>>(n, d_ptr, d_w, d_cdf, d_next);
  cudaMemcpy(cdf.data(), d_cdf, (size_t)nnz * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_ptr);
  cudaFree(d_w);
  cudaFree(d_cdf);
  cudaFree(d_next);
}
