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

// Phase 3 with coalesced stores: the tile is first partitioned locally in
// shared memory (below-pivot run, then the rest), and then the block copies
// the two runs to their global destinations with consecutive threads writing
// consecutive addresses, instead of each thread scattering single ints.
__global__ void scatter_kernel(int n, const int* __restrict__ x, int pivot, const int* __restrict__ offsets,
                               const int* __restrict__ total_below, int* __restrict__ out) {
  __shared__ int staged[kTile];
  int tile_start = blockIdx.x * kTile;
  int tile_len = n - tile_start < kTile ? n - tile_start : kTile;
  int local = threadIdx.x * kItems;
  int v[kItems];
  int c = 0;
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    v[k] = (local + k < tile_len) ? x[tile_start + local + k] : 0;
    c += (local + k < tile_len && v[k] < pivot) ? 1 : 0;
  }
  int block_below;
  int lb = block_exclusive_scan(c, &block_below);  // below-pivot elements before this thread in the tile
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    int j = local + k;
    if (j < tile_len) {
      if (v[k] < pivot) {
        staged[lb] = v[k];
        ++lb;
      } else {
        staged[block_below + j - lb] = v[k];
      }
    }
  }
  __syncthreads();
  int below_dst = offsets[blockIdx.x];                      // global slot of the tile's first below element
  int above_dst = *total_below + tile_start - below_dst;    // global slot of its first other element
  for (int j = threadIdx.x; j < tile_len; j += kBlock) {
    int dst = (j < block_below) ? below_dst + j : above_dst + (j - block_below);
    out[dst] = staged[j];
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
