#include <cuda_runtime.h>
#include <cstdint>

constexpr int kBlock = 256;

// Block tree as before; thread 0 adds the block sum to one device total with a
// 64-bit atomic (two's-complement addition, so negative sums are fine).
__global__ void lookup_kernel(int n, const int* codes, const int* table, unsigned long long* total) {
  __shared__ long long s[kBlock];
  int tid = threadIdx.x;
  int i = blockIdx.x * kBlock + tid;
  long long v = i < n ? table[codes[i]] : 0;
  s[tid] = v;
  __syncthreads();
  for (int stride = kBlock / 2; stride > 0; stride >>= 1) {
    if (tid < stride) s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0) atomicAdd(total, static_cast<unsigned long long>(s[0]));
}

int64_t lookupTableSum(int n, const int* codes, int m, const int* table) {
  if (n <= 0) return 0;
  int *dcodes = nullptr, *dtable = nullptr;
  cudaMalloc(&dcodes, static_cast<size_t>(n) * sizeof(int));
  cudaMalloc(&dtable, static_cast<size_t>(m) * sizeof(int));
  cudaMemcpy(dcodes, codes, static_cast<size_t>(n) * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(dtable, table, static_cast<size_t>(m) * sizeof(int), cudaMemcpyHostToDevice);
  unsigned long long* dtotal = nullptr;
  cudaMalloc(&dtotal, sizeof(unsigned long long));
  cudaMemset(dtotal, 0, sizeof(unsigned long long));
  lookup_kernel<<<(n + kBlock - 1) / kBlock, kBlock>>>(n, dcodes, dtable, dtotal);
  unsigned long long total = 0;
  cudaMemcpy(&total, dtotal, sizeof(total), cudaMemcpyDeviceToHost);
  cudaFree(dcodes);
  cudaFree(dtable);
  cudaFree(dtotal);
  return static_cast<int64_t>(total);
}
