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

// Phase 1: the block count is a single barrier-counting primitive.
__global__ void block_count_kernel(int n, const float* __restrict__ x, int* counts) {
  int i = blockIdx.x * kBlock + threadIdx.x;
  int flag = (i < n && x[i] != 0.0f) ? 1 : 0;
  int c = __syncthreads_count(flag);
  if (threadIdx.x == 0) counts[blockIdx.x] = c;
}

// Phase 3: warp vote instead of a shared-memory scan. A lane's rank inside
// its warp is the popcount of the ballot bits of lower lanes; warp totals
// (popcount of the ballot) are combined across the 8 warps in shared memory.
__global__ void scatter_kernel(int n, const float* __restrict__ x, const int* __restrict__ offsets,
                               int* __restrict__ idx) {
  __shared__ int warp_base[kBlock / 32];
  int i = blockIdx.x * kBlock + threadIdx.x;
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  bool flag = (i < n) && (x[i] != 0.0f);
  unsigned int vote = __ballot_sync(0xffffffffu, flag);
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
  if (flag) idx[warp_base[warp] + rank] = i;
}

int gatherNonzeroPositions(int n, const float* x, int* idx) {
  if (n <= 0) return 0;
  int nb = (n + kBlock - 1) / kBlock;
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
