#include <cuda_runtime.h>
#include <cstdint>

constexpr int kBlock = 256;
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

__device__ __forceinline__ long long square_at(const int* x, int i, int n) {
  if (i >= n) return 0;
  long long v = x[i];
  return v * v;
}

__global__ void block_totals_kernel(int n, const int* x, long long* totals) {
  __shared__ long long buf[2 * kBlock];
  long long total;
  hs_scan_db<kBlock>(square_at(x, blockIdx.x * kBlock + threadIdx.x, n), buf, &total);
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
  int i = blockIdx.x * kBlock + threadIdx.x;
  long long total;
  long long r = hs_scan_db<kBlock>(square_at(x, i, n), buf, &total);
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
