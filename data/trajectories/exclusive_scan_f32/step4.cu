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

// As before, but the 8 items move as two float4 loads and two float4 stores
// (base is a multiple of 8 floats, so 32-byte aligned on cudaMalloc memory).
__global__ void local_scan_kernel(int n, const float* __restrict__ x, float* __restrict__ y, float* block_sums) {
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
  float thread_prefix = block_inclusive_scan(run, &total) - run;
  if (base + kItems <= n) {
    float4 a = make_float4(thread_prefix + v[0], thread_prefix + v[1], thread_prefix + v[2], thread_prefix + v[3]);
    float4 b = make_float4(thread_prefix + v[4], thread_prefix + v[5], thread_prefix + v[6], thread_prefix + v[7]);
    *reinterpret_cast<float4*>(y + base) = a;
    *reinterpret_cast<float4*>(y + base + 4) = b;
  } else {
#pragma unroll
    for (int k = 0; k < kItems; ++k)
      if (base + k < n) y[base + k] = thread_prefix + v[k];
  }
  if (threadIdx.x == 0) block_sums[blockIdx.x] = total;
}

// Offset pass with float4: thread t of the block handles elements
// base + k*1024 + 4t .. +3 for k = 0, 1.
__global__ void add_offsets_kernel(int n, float* __restrict__ y, const float* __restrict__ sums) {
  float off = sums[blockIdx.x];
#pragma unroll
  for (int k = 0; k < 2; ++k) {
    int i = blockIdx.x * kTile + k * (kBlock * 4) + threadIdx.x * 4;
    if (i + 4 <= n) {
      float4 t = *reinterpret_cast<float4*>(y + i);
      t.x += off; t.y += off; t.z += off; t.w += off;
      *reinterpret_cast<float4*>(y + i) = t;
    } else {
      for (int j = i; j < n && j < i + 4; ++j) y[j] += off;
    }
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
