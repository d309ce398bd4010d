#include <cuda_runtime.h>

constexpr int kBlock = 256;
constexpr int kItems = 4;
constexpr int kTile = kBlock * kItems;
constexpr int kSumBlock = 1024;

// Block-wide exclusive scan of one int per thread from warp shuffles;
// *total receives the block sum. Trailing barrier allows reuse.
__device__ int block_exclusive_scan(int v, int* total) {
  __shared__ int warp_tot[32];
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  int nwarps = blockDim.x >> 5;
  int incl = v;
  for (int off = 1; off < 32; off <<= 1) {
    int t = __shfl_up_sync(0xffffffffu, incl, off);
    if (lane >= off) incl += t;
  }
  if (lane == 31) warp_tot[warp] = incl;
  __syncthreads();
  if (warp == 0) {
    int w = (lane < nwarps) ? warp_tot[lane] : 0;
    for (int off = 1; off < 32; off <<= 1) {
      int t = __shfl_up_sync(0xffffffffu, w, off);
      if (lane >= off) w += t;
    }
    warp_tot[lane] = w;
  }
  __syncthreads();
  int excl = incl - v + (warp > 0 ? warp_tot[warp - 1] : 0);
  *total = warp_tot[nwarps - 1];
  __syncthreads();
  return excl;
}

__global__ void scan_counts_kernel(int count, int* counts, int* total) {
  int carry = 0;
  for (int base = 0; base < count; base += kSumBlock) {
    int i = base + threadIdx.x;
    int v = (i < count) ? counts[i] : 0;
    int chunk_total;
    int excl = block_exclusive_scan(v, &chunk_total);
    if (i < count) counts[i] = carry + excl;
    carry += chunk_total;
  }
  if (threadIdx.x == 0) *total = carry;
}


// The 4 consecutive elements of a thread arrive in one float4 load (base is a
// multiple of 4, so 16-byte aligned); only the last partial group uses
// guarded scalar loads.
__device__ __forceinline__ void load_flags(const float* __restrict__ x, int base, int n, bool (&f)[kItems]) {
  if (base + kItems <= n) {
    float4 v = *reinterpret_cast<const float4*>(x + base);
    f[0] = v.x != 0.0f;
    f[1] = v.y != 0.0f;
    f[2] = v.z != 0.0f;
    f[3] = v.w != 0.0f;
  } else {
#pragma unroll
    for (int k = 0; k < kItems; ++k) f[k] = (base + k < n) && (x[base + k] != 0.0f);
  }
}

__global__ void block_count_kernel(int n, const float* __restrict__ x, int* counts) {
  bool f[kItems];
  load_flags(x, blockIdx.x * kTile + threadIdx.x * kItems, n, f);
  int c = 0;
#pragma unroll
  for (int k = 0; k < kItems; ++k) c += f[k] ? 1 : 0;
  c = __reduce_add_sync(0xffffffffu, c);
  __shared__ int warp_tot[kBlock / 32];
  if ((threadIdx.x & 31) == 0) warp_tot[threadIdx.x >> 5] = c;
  __syncthreads();
  if (threadIdx.x == 0) {
    int s = 0;
    for (int w = 0; w < kBlock / 32; ++w) s += warp_tot[w];
    counts[blockIdx.x] = s;
  }
}

// Each thread counts its 4 flags, one block-wide exclusive scan of those
// counts gives its first output slot, and it writes its kept indices in order.
__global__ void scatter_kernel(int n, const float* __restrict__ x, const int* __restrict__ offsets,
                               int* __restrict__ idx) {
  int base = blockIdx.x * kTile + threadIdx.x * kItems;
  bool f[kItems];
  load_flags(x, base, n, f);
  int c = 0;
#pragma unroll
  for (int k = 0; k < kItems; ++k) c += f[k] ? 1 : 0;
  int block_total;
  int pos = offsets[blockIdx.x] + block_exclusive_scan(c, &block_total);
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    if (f[k]) idx[pos++] = base + k;
  }
}

int gatherNonzeroPositions(int n, const float* x, int* idx) {
  if (n <= 0) return 0;
  int nb = (n + kTile - 1) / kTile;
  float* dx = nullptr;
  int *didx = nullptr, *dcounts = nullptr, *dtotal = nullptr;
  cudaMalloc(&dx, static_cast<size_t>(n) * sizeof(float));
  cudaMalloc(&didx, static_cast<size_t>(n) * sizeof(int));
  cudaMalloc(&dcounts, static_cast<size_t>(nb) * sizeof(int));
  cudaMalloc(&dtotal, sizeof(int));
  cudaMemcpy(dx, x, static_cast<size_t>(n) * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(didx, 0xFF, static_cast<size_t>(n) * sizeof(int));
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
