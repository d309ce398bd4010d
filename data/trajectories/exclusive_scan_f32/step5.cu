#include <cuda_runtime.h>

constexpr int kBlock = 256;
constexpr int kItems = 8;
constexpr int kTile = kBlock * kItems;
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

// Loads the 8 consecutive elements starting at base (zero past n): two
// aligned float4 loads when all 8 are in range, guarded scalar loads otherwise.
__device__ __forceinline__ void load8(const float* __restrict__ x, int base, int n, float (&v)[kItems]) {
  if (base + kItems <= n) {
    float4 a = *reinterpret_cast<const float4*>(x + base);
    float4 b = *reinterpret_cast<const float4*>(x + base + 4);
    v[0] = a.x; v[1] = a.y; v[2] = a.z; v[3] = a.w;
    v[4] = b.x; v[5] = b.y; v[6] = b.z; v[7] = b.w;
  } else {
#pragma unroll
    for (int k = 0; k < kItems; ++k) v[k] = (base + k < n) ? x[base + k] : 0.0f;
  }
}

// Reduce-then-scan. Pass 1 only sums each 2048-element tile (reads x, writes
// one float per tile); the tile sums are scanned; pass 3 re-reads x, scans the
// tile and adds the tile offset in the same kernel, writing y exactly once.
// The separate offset pass (read y + write y) is gone.
__global__ void tile_sum_kernel(int n, const float* __restrict__ x, float* tile_sums) {
  __shared__ float warp_sums[kBlock / 32];
  int base = blockIdx.x * kTile + threadIdx.x * kItems;
  float v[kItems];
  load8(x, base, n, v);
  float s = ((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + (v[6] + v[7]));
  for (int off = 16; off > 0; off >>= 1) s += __shfl_down_sync(0xffffffffu, s, off);
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) warp_sums[warp] = s;
  __syncthreads();
  if (warp == 0) {
    s = (lane < kBlock / 32) ? warp_sums[lane] : 0.0f;
    for (int off = 16; off > 0; off >>= 1) s += __shfl_down_sync(0xffffffffu, s, off);
    if (lane == 0) tile_sums[blockIdx.x] = s;
  }
}

__global__ void scan_with_offset_kernel(int n, const float* __restrict__ x, float* __restrict__ y,
                                        const float* __restrict__ offsets) {
  int base = blockIdx.x * kTile + threadIdx.x * kItems;
  float v[kItems];
  load8(x, base, n, v);
  float run = 0.0f;
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    float e = run;
    run += v[k];
    v[k] = e;
  }
  float total;
  float prefix = offsets[blockIdx.x] + (block_inclusive_scan(run, &total) - run);
  if (base + kItems <= n) {
    float4 a = make_float4(prefix + v[0], prefix + v[1], prefix + v[2], prefix + v[3]);
    float4 b = make_float4(prefix + v[4], prefix + v[5], prefix + v[6], prefix + v[7]);
    *reinterpret_cast<float4*>(y + base) = a;
    *reinterpret_cast<float4*>(y + base + 4) = b;
  } else {
#pragma unroll
    for (int k = 0; k < kItems; ++k)
      if (base + k < n) y[base + k] = prefix + v[k];
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
  tile_sum_kernel<<<nb, kBlock>>>(n, dx, dsums);
  scan_block_sums_kernel<<<1, kSumBlock>>>(nb, dsums);
  scan_with_offset_kernel<<<nb, kBlock>>>(n, dx, dy, dsums);
  cudaMemcpy(y, dy, static_cast<size_t>(n) * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
  cudaFree(dsums);
}
