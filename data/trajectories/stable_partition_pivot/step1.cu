#include <cuda_runtime.h>

constexpr int kBlock = 256;
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

// Phase 1: number of elements below the pivot in each block.
__global__ void count_below_kernel(int n, const int* __restrict__ x, int pivot, int* counts) {
  int i = blockIdx.x * kBlock + threadIdx.x;
  int c = __syncthreads_count(i < n && x[i] < pivot);
  if (threadIdx.x == 0) counts[blockIdx.x] = c;
}

// Phase 3: an element below the pivot goes to (elements below the pivot
// before it); any other element goes to total_below + (elements not below
// before it) = total_below + i - (elements below before it). Ranks inside the
// block come from a warp ballot and per-warp bases.
__global__ void scatter_kernel(int n, const int* __restrict__ x, int pivot, const int* __restrict__ offsets,
                               const int* __restrict__ total_below, int* __restrict__ out) {
  __shared__ int warp_base[kBlock / 32];
  int i = blockIdx.x * kBlock + threadIdx.x;
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  int v = (i < n) ? x[i] : 0;
  bool below = (i < n) && (v < pivot);
  unsigned int vote = __ballot_sync(0xffffffffu, below);
  int rank = __popc(vote & ((1u << lane) - 1u));
  if (lane == 0) warp_base[warp] = __popc(vote);
  __syncthreads();
  if (threadIdx.x == 0) {
    int run = offsets[blockIdx.x];
    for (int w = 0; w < kBlock / 32; ++w) {
      int c = warp_base[w];
      warp_base[w] = run;
      run += c;
    }
  }
  __syncthreads();
  if (i < n) {
    int below_before = warp_base[warp] + rank;
    out[below ? below_before : *total_below + i - below_before] = v;
  }
}

int stablePartitionBelow(int n, const int* x, int pivot, int* out) {
  if (n <= 0) return 0;
  int nb = (n + kBlock - 1) / kBlock;
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
