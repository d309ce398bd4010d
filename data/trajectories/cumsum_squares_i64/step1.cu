#include <cuda_runtime.h>
#include <cstdint>

constexpr int kBlock = 256;
constexpr int kSumBlock = 1024;

// Hillis-Steele inclusive scan of one value per thread in shared memory s
// (blockDim.x entries): read, barrier, add, barrier in every round.
__device__ long long hs_scan(long long x, long long* s) {
  int tid = threadIdx.x;
  s[tid] = x;
  __syncthreads();
  for (int off = 1; off < blockDim.x; off <<= 1) {
    long long t = tid >= off ? s[tid - off] : 0;
    __syncthreads();
    s[tid] += t;
    __syncthreads();
  }
  return s[tid];
}

__device__ __forceinline__ long long square_at(const int* x, int i, int n) {
  if (i >= n) return 0;
  long long v = x[i];
  return v * v;
}

// Phase 1: total of the squares of every 256-element block.
__global__ void block_totals_kernel(int n, const int* x, long long* totals) {
  __shared__ long long s[kBlock];
  long long r = hs_scan(square_at(x, blockIdx.x * kBlock + threadIdx.x, n), s);
  if (threadIdx.x == kBlock - 1) totals[blockIdx.x] = r;
}

// Phase 2: one block scans the block totals in place, 1024 at a time with a carry.
__global__ void scan_totals_kernel(int count, long long* totals) {
  __shared__ long long s[kSumBlock];
  long long carry = 0;
  for (int base = 0; base < count; base += kSumBlock) {
    int i = base + threadIdx.x;
    long long r = hs_scan(i < count ? totals[i] : 0, s);
    if (i < count) totals[i] = carry + r;
    carry += s[kSumBlock - 1];
    __syncthreads();
  }
}

// Phase 3: rescan each block and add the scanned total of all earlier blocks.
__global__ void block_scan_kernel(int n, const int* x, const long long* scanned, long long* out) {
  __shared__ long long s[kBlock];
  int i = blockIdx.x * kBlock + threadIdx.x;
  long long r = hs_scan(square_at(x, i, n), s);
  long long before = blockIdx.x > 0 ? scanned[blockIdx.x - 1] : 0;
  if (i < n) out[i] = before + r;
}

void cumulativeSumOfSquares(int n, const int* x, int64_t* out) {
  if (n <= 0) return;
  int nb = (n + kBlock - 1) / kBlock;
  int* dx = nullptr;
  long long *dout = nullptr, *dtot = nullptr;
  cudaMalloc(&dx, static_cast<size_t>(n) * sizeof(int));
  cudaMalloc(&dout, static_cast<size_t>(n) * sizeof(long long));
  cudaMalloc(&dtot, static_cast<size_t>(nb) * sizeof(long long));
  cudaMemcpy(dx, x, static_cast<size_t>(n) * sizeof(int), cudaMemcpyHostToDevice);
  block_totals_kernel<<<nb, kBlock>>>(n, dx, dtot);
  scan_totals_kernel<<<1, kSumBlock>>>(nb, dtot);
  block_scan_kernel<<<nb, kBlock>>>(n, dx, dtot, dout);
  cudaMemcpy(out, dout, static_cast<size_t>(n) * sizeof(long long), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dout);
  cudaFree(dtot);
}
