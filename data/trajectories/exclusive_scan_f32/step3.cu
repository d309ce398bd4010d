#include <cuda_runtime.h>

constexpr int kBlock = 256;
constexpr int kItems = 8;                   // consecutive elements per thread
constexpr int kTile = kBlock * kItems;      // 2048 elements per block
constexpr int kSumBlock = 1024;

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

// Thread coarsening: each thread owns 8 consecutive elements, scans them
// serially in registers, and only the 256 thread totals go through the
// block-wide scan. Blocks cover 2048 elements, so 8x fewer block sums.
__global__ void local_scan_kernel(int n, const float* __restrict__ x, float* __restrict__ y, float* block_sums) {
  int base = blockIdx.x * kTile + threadIdx.x * kItems;
  float v[kItems];
#pragma unroll
  for (int k = 0; k < kItems; ++k) v[k] = (base + k < n) ? x[base + k] : 0.0f;
  float run = 0.0f;
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    float e = run;  // exclusive prefix within the thread
    run += v[k];
    v[k] = e;
  }
  float total;
  float thread_prefix = block_inclusive_scan(run, &total) - run;
#pragma unroll
  for (int k = 0; k < kItems; ++k)
    if (base + k < n) y[base + k] = thread_prefix + v[k];
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

// Each block of 256 threads adds one offset to its 2048-element tile.
__global__ void add_offsets_kernel(int n, float* __restrict__ y, const float* __restrict__ sums) {
  float off = sums[blockIdx.x];
  int base = blockIdx.x * kTile;
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    int i = base + k * kBlock + threadIdx.x;
    if (i < n) y[i] += off;
  }
}

void exclusivePrefixSumF32(int n, const float* x, float* y) {
  if (n <= 0) return;
  int nb = (n + kTile - 1) / kTile;
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
