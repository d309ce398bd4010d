#include <cuda_runtime.h>
#include <cstddef>
#include <cstdint>

// One thread per vertex pair (i, j) with i < j: if the edge exists it counts
// common neighbours k > j by scanning both rows, then adds its count to the
// 64-bit total atomically.
__global__ void tri_pairs(int n, const uint8_t* adj, unsigned long long* total) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= n || j >= n || j <= i) return;
  const uint8_t* ri = adj + (size_t)i * n;
  if (!ri[j]) return;
  const uint8_t* rj = adj + (size_t)j * n;
  unsigned long long c = 0;
  for (int k = j + 1; k < n; ++k) c += (unsigned)(ri[k] & rj[k]);
  if (c) atomicAdd(total, c);
}

int64_t count_triangles_dense(int n, const uint8_t* adj) {
  if (n < 3) return 0;
  size_t bytes = (size_t)n * (size_t)n;
  uint8_t* d_adj = nullptr;
  unsigned long long* d_total = nullptr;
  cudaMalloc(&d_adj, bytes);
  cudaMalloc(&d_total, sizeof(unsigned long long));
  cudaMemcpy(d_adj, adj, bytes, cudaMemcpyHostToDevice);
  cudaMemset(d_total, 0, sizeof(unsigned long long));
  dim3 block(32, 8);
  dim3 grid((unsigned)((n + 31) / 32), (unsigned)((n + 7) / 8));
  tri_pairs<<<grid, block>>>(n, d_adj, d_total);
  unsigned long long total = 0;
  cudaMemcpy(&total, d_total, sizeof(total), cudaMemcpyDeviceToHost);
  cudaFree(d_adj);
  cudaFree(d_total);
  return (int64_t)total;
}
