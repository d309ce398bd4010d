#include <cuda_runtime.h>
#include <cstdint>

constexpr int kBlock = 256;

// Each block gathers its 256 table entries and sums them with a shared-memory
// tree (halving strides, a barrier per level); thread 0 writes the block's
// partial sum, and the host adds the partial sums.
__global__ void lookup_kernel(int n, const int* codes, const int* table, long long* partial) {
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
  if (tid == 0) partial[blockIdx.x] = s[0];
}

int64_t lookupTableSum(int n, const int* codes, int m, const int* table) {
  if (n <= 0) return 0;
  int *dcodes = nullptr, *dtable = nullptr;
  cudaMalloc(&dcodes, static_cast<size_t>(n) * sizeof(int));
  cudaMalloc(&dtable, static_cast<size_t>(m) * sizeof(int));
  cudaMemcpy(dcodes, codes, static_cast<size_t>(n) * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(dtable, table, static_cast<size_t>(m) * sizeof(int), cudaMemcpyHostToDevice);
  int nb = (n + kBlock - 1) / kBlock;
  long long* dpartial = nullptr;
  cudaMalloc(&dpartial, static_cast<size_t>(nb) * sizeof(long long));
  lookup_kernel<<<nb, kBlock>>>(n, dcodes, dtable, dpartial);
  long long* partial = new long long[nb];
  cudaMemcpy(partial, dpartial, static_cast<size_t>(nb) * sizeof(long long), cudaMemcpyDeviceToHost);
  int64_t total = 0;
  for (int b = 0; b < nb; ++b) total += partial[b];
  delete[] partial;
  cudaFree(dcodes);
  cudaFree(dtable);
  cudaFree(dpartial);
  return total;
}
