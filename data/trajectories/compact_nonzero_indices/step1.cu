#include <cuda_runtime.h>

constexpr int kBlock = 256;
constexpr int kSumBlock = 1024;

// Hillis-Steele inclusive scan of one int per thread in shared memory.
__device__ int hs_scan(int v, int* s) {
  int tid = threadIdx.x;
  s[tid] = v;
  __syncthreads();
  for (int off = 1; off < blockDim.x; off <<= 1) {
    int t = (tid >= off) ? s[tid - off] : 0;
    __syncthreads();
    s[tid] += t;
    __syncthreads();
  }
  return s[tid];
}

// Phase 1: number of non-zeros in every block of 256 elements.
__global__ void block_count_kernel(int n, const float* x, int* counts) {
  __shared__ int s[kBlock];
  int i = blockIdx.x * kBlock + threadIdx.x;
  int flag = (i < n && x[i] != 0.0f) ? 1 : 0;
  int incl = hs_scan(flag, s);
  if (threadIdx.x == kBlock - 1) counts[blockIdx.x] = incl;
}

// Phase 2: exclusive scan of the block counts (one block, chunked); the grand
// total is written to *total.
__global__ void scan_counts_kernel(int count, int* counts, int* total) {
  __shared__ int s[kSumBlock];
  int carry = 0;
  for (int base = 0; base < count; base += kSumBlock) {
    int i = base + threadIdx.x;
    int v = (i < count) ? counts[i] : 0;
    int incl = hs_scan(v, s);
    if (i < count) counts[i] = carry + incl - v;
    carry += s[kSumBlock - 1];
    __syncthreads();
  }
  if (threadIdx.x == 0) *total = carry;
}

// Phase 3: rescan each block's flags and scatter kept indices to
// block offset + local exclusive rank.
__global__ void scatter_kernel(int n, const float* x, const int* offsets, int* idx) {
  __shared__ int s[kBlock];
  int i = blockIdx.x * kBlock + threadIdx.x;
  int flag = (i < n && x[i] != 0.0f) ? 1 : 0;
  int incl = hs_scan(flag, s);
  if (flag) idx[offsets[blockIdx.x] + incl - 1] = i;
}

int gatherNonzeroPositions(int n, const float* x, int* idx) {
  if (n <= 0) return 0;
  int nb = (n + kBlock - 1) / kBlock;
  float* dx = nullptr;
  int *didx = nullptr, *dcounts = nullptr, *dtotal = nullptr;
  cudaMalloc(&dx, static_cast<size_t>(n) * sizeof(float));
  cudaMalloc(&didx, static_cast<size_t>(n) * sizeof(int));
  cudaMalloc(&dcounts, static_cast<size_t>(nb) * sizeof(int));
  cudaMalloc(&dtotal, sizeof(int));
  cudaMemcpy(dx, x, static_cast<size_t>(n) * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(didx, 0xFF, static_cast<size_t>(n) * sizeof(int));  // every byte 0xFF: -1 padding
  block_count_kernel<<<nb, kBlock>>>(n, dx, dcounts);
  scan_counts_kernel<<<1, kSumBlock>>>(nb, dcounts, dtotal);
  scatter_kernel<<<nb, kBlock>>>(n, dx, dcounts, didx);
  int total = 0;
  cudaMemcpy(&total, dtotal, sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(idx, didx, static_cast<size_t>(n) * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(didx);
  cudaFree(dcounts);
  cudaFree(dtotal);
  return total;
}
