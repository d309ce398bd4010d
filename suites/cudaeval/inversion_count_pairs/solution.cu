#include <cuda_runtime.h>
#include <cstddef>
#include <cstdint>

constexpr int kTile = 1024;  // elements sorted per block in shared memory

// Count of v[0..len) strictly below x (lower bound) or at most x (upper
// bound) in an ascending run.
__device__ __forceinline__ int rank_below(const int* v, int len, int x) {
  int lo = 0, hi = len;
  while (lo < hi) {
    int mid = (lo + hi) >> 1;
    if (v[mid] < x) lo = mid + 1; else hi = mid;
  }
  return lo;
}
__device__ __forceinline__ int rank_at_most(const int* v, int len, int x) {
  int lo = 0, hi = len;
  while (lo < hi) {
    int mid = (lo + hi) >> 1;
    if (v[mid] <= x) lo = mid + 1; else hi = mid;
  }
  return lo;
}

// One merge step for the element at index i of runs of width w: it moves to
// its place in the merged pair of runs, and an element of the right run
// reports how many elements of the left run are greater than it (the
// inversions between the two runs).
// Step 2 (algorithmic_restructuring): instead of testing all n^2/2 pairs, the
// inversions are counted during a bottom-up merge sort: each pair is counted
// exactly once, at the level where its two elements' runs merge, by a binary
// search, O(n log^2 n) in total and parallel per element.
__device__ __forceinline__ unsigned int merge_place(const int* src, int* dst, int n, int w, int i) {
  int base = (i / (2 * w)) * (2 * w);
  int mid = min(base + w, n), end = min(base + 2 * w, n);
  int x = src[i];
  if (i < mid) {
    int r = rank_below(src + mid, end - mid, x);  // right elements before x
    dst[base + (i - base) + r] = x;
    return 0u;
  }
  int l = rank_at_most(src + base, mid - base, x);  // left elements before x
  dst[base + (i - mid) + l] = x;
  return (unsigned int)(mid - base - l);
}

// Step 4 (warp_shuffle_reduction) and Step 5 (atomic_aggregation): the
// block's counts are summed with shuffles and shared memory, then added to
// the result with one 64-bit atomicAdd per block.
__device__ void add_block_count(unsigned long long c, unsigned long long* result) {
  __shared__ unsigned long long warp_sum[32];
  for (int off = 16; off > 0; off >>= 1) c += __shfl_down_sync(0xffffffffu, c, off);
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0) warp_sum[warp] = c;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned long long s = 0;
    for (int k = 0; k < (int)(blockDim.x / 32); ++k) s += warp_sum[k];
    if (s != 0) atomicAdd(result, s);
  }
  __syncthreads();
}

// Step 3 (shared_memory_tiling): each block sorts its 1024-element tile in
// shared memory through merge widths 1 .. 512 (ping-pong buffers, a
// __syncthreads per level), counting the inversions inside the tile, and
// writes the sorted tile back.
// Step 1 (thread_mapping): one thread per element of the tile.
__global__ void tile_sort_count_kernel(int n, const int* __restrict__ a, int* __restrict__ sorted,
                                       unsigned long long* __restrict__ result) {
  __shared__ int buf[2][kTile];
  int base = blockIdx.x * kTile;
  int len = n - base < kTile ? n - base : kTile;
  int t = threadIdx.x;
  if (t < len) buf[0][t] = a[base + t];
  __syncthreads();
  unsigned long long c = 0;
  int cur = 0;
  for (int w = 1; w < len; w <<= 1) {
    if (t < len) c += merge_place(buf[cur], buf[cur ^ 1], len, w, t);
    __syncthreads();
    cur ^= 1;
  }
  if (t < len) sorted[base + t] = buf[cur][t];
  add_block_count(c, result);
}

// Levels with runs of kTile elements and more, one launch per level over
// global ping-pong arrays.
__global__ void merge_level_kernel(int n, int w, const int* __restrict__ src, int* __restrict__ dst,
                                   unsigned long long* __restrict__ result) {
  unsigned long long c = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    c += merge_place(src, dst, n, w, i);
  add_block_count(c, result);
}

int64_t countInversions(int n, const int* a) {
  unsigned long long* dres = nullptr;
  cudaMalloc(&dres, sizeof(unsigned long long));
  cudaMemset(dres, 0, sizeof(unsigned long long));
  if (n > 1) {
    int *da = nullptr, *buf[2] = {nullptr, nullptr};
    cudaMalloc(&da, (size_t)n * sizeof(int));
    cudaMalloc(&buf[0], (size_t)n * sizeof(int));
    cudaMalloc(&buf[1], (size_t)n * sizeof(int));
    cudaMemcpy(da, a, (size_t)n * sizeof(int), cudaMemcpyHostToDevice);
    int tiles = (n + kTile - 1) / kTile;
    tile_sort_count_kernel<<<tiles, kTile>>>(n, da, buf[0], dres);
    int device = 0, sms = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (sms <= 0) sms = 80;
    int grid = (n + 255) / 256;
    if (grid > sms * 8) grid = sms * 8;
    int cur = 0;
    for (long long w = kTile; w < n; w <<= 1) {
      merge_level_kernel<<<grid, 256>>>(n, (int)w, buf[cur], buf[cur ^ 1], dres);
      cur ^= 1;
    }
    cudaFree(da);
    cudaFree(buf[0]);
    cudaFree(buf[1]);
  }
  unsigned long long h = 0;
  cudaMemcpy(&h, dres, sizeof(h), cudaMemcpyDeviceToHost);
  cudaFree(dres);
  return (int64_t)h;
}
