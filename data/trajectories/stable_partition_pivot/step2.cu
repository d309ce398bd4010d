#include <cuda_runtime.h>

constexpr int kBlock = 256;
constexpr int kItems = 4;
constexpr int kTile = kBlock * kItems;   // 1024 elements per block
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

// Phase 1: per-thread counts of 4 elements, summed per warp and per block.
__global__ void count_below_kernel(int n, const int* __restrict__ x, int pivot, int* counts) {
  __shared__ int warp_tot[kBlock / 32];
  int base = blockIdx.x * kTile + threadIdx.x * kItems;
  int c = 0;
#pragma unroll
  for (int k = 0; k < kItems; ++k) c += (base + k < n && x[base + k] < pivot) ? 1 : 0;
  c = __reduce_add_sync(0xffffffffu, c);
  if ((threadIdx.x & 31) == 0) warp_tot[threadIdx.x >> 5] = c;
  __syncthreads();
  if (threadIdx.x == 0) {
    int s = 0;
    for (int w = 0; w < kBlock / 32; ++w) s += warp_tot[w];
    counts[blockIdx.x] = s;
  }
}

// Phase 3: each thread owns 4 consecutive elements; one block scan of the
// per-thread "below" counts gives every thread its running position.
__global__ void scatter_kernel(int n, const int* __restrict__ x, int pivot, const int* __restrict__ offsets,
                               const int* __restrict__ total_below, int* __restrict__ out) {
  int base = blockIdx.x * kTile + threadIdx.x * kItems;
  int v[kItems];
  int c = 0;
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    v[k] = (base + k < n) ? x[base + k] : 0;
    c += (base + k < n && v[k] < pivot) ? 1 : 0;
  }
  int block_below;
  int below_before = offsets[blockIdx.x] + block_exclusive_scan(c, &block_below);
  int tb = *total_below;
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    int i = base + k;
    if (i < n) {
      if (v[k] < pivot) {
        out[below_before] = v[k];
        ++below_before;
      } else {
        out[tb + i - below_before] = v[k];
      }
    }
  }
}

int stablePartitionBelow(int n, const int* x, int pivot, int* out) {
  if (n <= 0) return 0;
  int nb = (n + kTile - 1) / kTile;
  size_t bytes = static_cast<size_t>(n) * sizeof(int);
  int *dx = nullptr, *dout = nullptr, *dcounts = nullptr, *dtotal = nullptr;
  cudaMalloc(&dx, bytes);
  cudaMalloc(&dout, bytes);
  cudaMalloc(&dcounts, static_cast<size_t>(nb) * sizeof(int));
  cudaMalloc(&dtotal, sizeof(int));
  cudaMemcpy(dx, x, bytes, cudaMemcpyHostToDevice);
  count_below_kernel<<<nb, kBlock>>>(n, dx, pivot, dcounts);
  scan_counts_kernel<<<1, kSumBlock>>>(nb, dcounts, dtotal);
  scatter_kernel<<<nb, kBlock>>>(n, dx, pivot, dcounts, dtotal, dout);
  int below = 0;
  cudaMemcpy(&below, dtotal, sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(out, dout, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dout);
  cudaFree(dcounts);
  cudaFree(dtotal);
  return below;
}
