#include <cuda_runtime.h>
#include <vector>

constexpr int kBlock = 256;
constexpr int kItems = 4;
constexpr int kTile = kBlock * kItems;  // 1024 elements per block
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

// Each thread owns 4 consecutive elements plus the one just before them; the
// left neighbours of items 1..3 are already in registers, so each value is
// loaded once (plus one extra load per thread).
__device__ __forceinline__ void load_items(const int* __restrict__ a, int base, int n, int (&v)[kItems],
                                           bool (&head)[kItems]) {
  int prev = (base > 0 && base - 1 < n) ? __ldg(a + base - 1) : 0;
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    int i = base + k;
    v[k] = (i < n) ? __ldg(a + i) : 0;
    head[k] = (i < n) && (i == 0 || v[k] != prev);
    prev = v[k];
  }
}

__global__ void count_heads_kernel(int n, const int* __restrict__ a, int* __restrict__ counts) {
  __shared__ int warp_tot[kBlock / 32];
  int v[kItems];
  bool head[kItems];
  load_items(a, blockIdx.x * kTile + threadIdx.x * kItems, n, v, head);
  int c = 0;
#pragma unroll
  for (int k = 0; k < kItems; ++k) c += head[k] ? 1 : 0;
  c = __reduce_add_sync(0xffffffffu, c);
  if ((threadIdx.x & 31) == 0) warp_tot[threadIdx.x >> 5] = c;
  __syncthreads();
  if (threadIdx.x == 0) {
    int s = 0;
    for (int w = 0; w < kBlock / 32; ++w) s += warp_tot[w];
    counts[blockIdx.x] = s;
  }
}

// One block-wide exclusive scan of per-thread head counts gives each thread
// its first output slot; it then writes its heads in order.
__global__ void scatter_heads_kernel(int n, const int* __restrict__ a, const int* __restrict__ offsets,
                                     int* __restrict__ out) {
  int v[kItems];
  bool head[kItems];
  load_items(a, blockIdx.x * kTile + threadIdx.x * kItems, n, v, head);
  int c = 0;
#pragma unroll
  for (int k = 0; k < kItems; ++k) c += head[k] ? 1 : 0;
  int block_total;
  int pos = __ldg(offsets + blockIdx.x) + block_exclusive_scan(c, &block_total);
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    if (head[k]) out[pos++] = v[k];
  }
}

void dedupSorted(std::vector<int> const& in, std::vector<int>& out) {
  int n = static_cast<int>(in.size());
  out.clear();
  if (n == 0) return;
  int nb = (n + kTile - 1) / kTile;
  int *din = nullptr, *dout = nullptr, *dcounts = nullptr, *dtotal = nullptr;
  cudaMalloc(&din, static_cast<size_t>(n) * sizeof(int));
  cudaMalloc(&dout, static_cast<size_t>(n) * sizeof(int));
  cudaMalloc(&dcounts, static_cast<size_t>(nb) * sizeof(int));
  cudaMalloc(&dtotal, sizeof(int));
  cudaMemcpy(din, in.data(), static_cast<size_t>(n) * sizeof(int), cudaMemcpyHostToDevice);
  count_heads_kernel<<<nb, kBlock>>>(n, din, dcounts);
  scan_counts_kernel<<<1, kSumBlock>>>(nb, dcounts, dtotal);
  scatter_heads_kernel<<<nb, kBlock>>>(n, din, dcounts, dout);
  int total = 0;
  cudaMemcpy(&total, dtotal, sizeof(int), cudaMemcpyDeviceToHost);
  out.resize(total);
  // Only the distinct values travel back.
  cudaMemcpy(out.data(), dout, static_cast<size_t>(total) * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(din);
  cudaFree(dout);
  cudaFree(dcounts);
  cudaFree(dtotal);
}
