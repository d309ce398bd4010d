#include <cuda_runtime.h>
#include <cstdint>

constexpr int kBlock = 256;
constexpr int kItems = 8;
constexpr int kTile = kBlock * kItems;
constexpr int kSumBlock = 1024;

// Double-buffered Hillis-Steele inclusive scan: every round reads one buffer
// and writes the other, so a round needs a single barrier instead of two.
// buf holds 2 * B entries. The result is returned and the block total is
// stored in *total; the caller must barrier before reusing buf.
template <int B>
__device__ long long hs_scan_db(long long x, long long* buf, long long* total) {
  int tid = threadIdx.x;
  int pin = 0;
  buf[tid] = x;
  __syncthreads();
#pragma unroll
  for (int off = 1; off < B; off <<= 1) {
    long long v = buf[pin * B + tid];
    if (tid >= off) v += buf[pin * B + tid - off];
    pin ^= 1;
    buf[pin * B + tid] = v;
    __syncthreads();
  }
  *total = buf[pin * B + B - 1];
  return buf[pin * B + tid];
}

// Each thread owns 8 consecutive elements of a 2048-element tile and keeps
// their squares in registers.
__device__ __forceinline__ void load_squares(const int* x, int base, int n, long long (&q)[kItems]) {
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    long long v = (base + k < n) ? x[base + k] : 0;
    q[k] = v * v;
  }
}

__global__ void block_totals_kernel(int n, const int* x, long long* totals) {
  __shared__ long long buf[2 * kBlock];
  long long q[kItems];
  load_squares(x, blockIdx.x * kTile + threadIdx.x * kItems, n, q);
  long long mine = 0;
#pragma unroll
  for (int k = 0; k < kItems; ++k) mine += q[k];
  long long total;
  hs_scan_db<kBlock>(mine, buf, &total);
  if (threadIdx.x == 0) totals[blockIdx.x] = total;
}

__global__ void scan_totals_kernel(int count, long long* totals) {
  __shared__ long long buf[2 * kSumBlock];
  long long carry = 0;
  for (int base = 0; base < count; base += kSumBlock) {
    int i = base + threadIdx.x;
    long long total;
    long long r = hs_scan_db<kSumBlock>(i < count ? totals[i] : 0, buf, &total);
    if (i < count) totals[i] = carry + r;
    carry += total;
    __syncthreads();  // all reads of buf done before the next chunk writes it
  }
}

__global__ void block_scan_kernel(int n, const int* x, const long long* scanned, long long* out) {
  __shared__ long long buf[2 * kBlock];
  int base = blockIdx.x * kTile + threadIdx.x * kItems;
  long long q[kItems];
  load_squares(x, base, n, q);
#pragma unroll
  for (int k = 1; k < kItems; ++k) q[k] += q[k - 1];  // in-thread inclusive scan
  long long total;
  long long incl = hs_scan_db<kBlock>(q[kItems - 1], buf, &total);
  long long offset = (blockIdx.x > 0 ? scanned[blockIdx.x - 1] : 0) + incl - q[kItems - 1];
#pragma unroll
  for (int k = 0; k < kItems; ++k)
    if (base + k < n) out[base + k] = offset + q[k];
}

void cumulativeSumOfSquares(int n, const int* x, int64_t* out) {
  if (n <= 0) return;
  int nb = (n + kTile - 1) / kTile;
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
