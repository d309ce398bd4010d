#include <cuda_runtime.h>

constexpr int kBlock = 256;   // elements per block in the local scans
constexpr int kSumBlock = 1024;

// Hillis-Steele inclusive scan of one value per thread in shared memory
// (log2(blockDim) rounds, each read separated from its write by a barrier).
// Returns the thread's inclusive prefix; s[blockDim.x - 1] holds the total.
__device__ float hs_inclusive_scan(float v, float* s) {
  int tid = threadIdx.x;
  s[tid] = v;
  __syncthreads();
  for (int off = 1; off < blockDim.x; off <<= 1) {
    float t = (tid >= off) ? s[tid - off] : 0.0f;
    __syncthreads();
    s[tid] += t;
    __syncthreads();
  }
  return s[tid];
}

// Phase 1: exclusive scan inside each block of 256 elements; block totals out.
__global__ void local_scan_kernel(int n, const float* x, float* y, float* block_sums) {
  __shared__ float s[kBlock];
  int i = blockIdx.x * kBlock + threadIdx.x;
  float v = (i < n) ? x[i] : 0.0f;
  float incl = hs_inclusive_scan(v, s);
  if (i < n) y[i] = incl - v;
  if (threadIdx.x == kBlock - 1) block_sums[blockIdx.x] = incl;
}

// Phase 2: one block scans the block totals (exclusive) in chunks of 1024,
// carrying the running total from chunk to chunk.
__global__ void scan_block_sums_kernel(int count, float* sums) {
  __shared__ float s[kSumBlock];
  float carry = 0.0f;
  for (int base = 0; base < count; base += kSumBlock) {
    int i = base + threadIdx.x;
    float v = (i < count) ? sums[i] : 0.0f;
    float incl = hs_inclusive_scan(v, s);
    if (i < count) sums[i] = carry + (incl - v);
    carry += s[kSumBlock - 1];
    __syncthreads();  // everyone has read s before the next chunk overwrites it
  }
}

// Phase 3: add each block's offset to its elements.
__global__ void add_offsets_kernel(int n, float* y, const float* sums) {
  int i = blockIdx.x * kBlock + threadIdx.x;
  if (i < n) y[i] += sums[blockIdx.x];
}

void exclusivePrefixSumF32(int n, const float* x, float* y) {
  if (n <= 0) return;
  int nb = (n + kBlock - 1) / kBlock;
  float *dx = nullptr, *dy = nullptr, *dsums = nullptr;
  cudaMalloc(&dx, static_cast<size_t>(n) * sizeof(float));
  cudaMalloc(&dy, static_cast<size_t>(n) * sizeof(float));
  cudaMalloc(&dsums, static_cast<size_t>(nb) * sizeof(float));
  cudaMemcpy(dx, x, static_cast<size_t>(n) * sizeof(float), cudaMemcpyHostToDevice);
  local_scan_kernel<<<nb, kBlock>>>(n, dx, dy, dsums);
  scan_block_sums_kernel<<<1, kSumBlock>>>(nb, dsums);
  add_offsets_kernel<<<nb, kBlock>>>(n, dy, dsums);
  cudaMemcpy(y, dy, static_cast<size_t>(n) * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
  cudaFree(dsums);
}
