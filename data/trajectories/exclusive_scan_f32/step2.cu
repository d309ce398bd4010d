#include <cuda_runtime.h>

constexpr int kBlock = 256;
constexpr int kSumBlock = 1024;

// Block-wide inclusive scan built from warp shuffles: each warp scans its 32
// values in registers (no barriers), warp totals are scanned by warp 0, and
// each warp adds the total of the warps before it. Two barriers in all, plus
// a trailing one so the helper can be called repeatedly. *total receives the
// block total. blockDim.x must be a multiple of 32 (at most 1024).
__device__ float block_inclusive_scan(float v, float* total) {
  __shared__ float warp_tot[32];
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  int nwarps = blockDim.x >> 5;
  for (int off = 1; off < 32; off <<= 1) {
    float t = __shfl_up_sync(0xffffffffu, v, off);
    if (lane >= off) v += t;
  }
  if (lane == 31) warp_tot[warp] = v;
  __syncthreads();
  if (warp == 0) {
    float w = (lane < nwarps) ? warp_tot[lane] : 0.0f;
    for (int off = 1; off < 32; off <<= 1) {
      float t = __shfl_up_sync(0xffffffffu, w, off);
      if (lane >= off) w += t;
    }
    warp_tot[lane] = w;
  }
  __syncthreads();
  if (warp > 0) v += warp_tot[warp - 1];
  *total = warp_tot[nwarps - 1];
  __syncthreads();
  return v;
}

__global__ void local_scan_kernel(int n, const float* __restrict__ x, float* __restrict__ y, float* block_sums) {
  int i = blockIdx.x * kBlock + threadIdx.x;
  float v = (i < n) ? x[i] : 0.0f;
  float total;
  float incl = block_inclusive_scan(v, &total);
  if (i < n) y[i] = incl - v;
  if (threadIdx.x == 0) block_sums[blockIdx.x] = total;
}

__global__ void scan_block_sums_kernel(int count, float* sums) {
  float carry = 0.0f;
  for (int base = 0; base < count; base += kSumBlock) {
    int i = base + threadIdx.x;
    float v = (i < count) ? sums[i] : 0.0f;
    float total;
    float incl = block_inclusive_scan(v, &total);
    if (i < count) sums[i] = carry + (incl - v);
    carry += total;
  }
}

__global__ void add_offsets_kernel(int n, float* __restrict__ y, const float* __restrict__ sums) {
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
