#include <cuda_runtime.h>

constexpr int kKeys = 256;
constexpr int kBlock = 256;
constexpr int kTile = 256;  // elements per tile (one per thread)

// ---- generic exclusive scan of an int array (in place), three phases ----
constexpr int kScanBlock = 256;
constexpr int kScanItems = 4;
constexpr int kScanChunk = kScanBlock * kScanItems;  // 1024 ints per block
constexpr int kSumBlock = 1024;

// Block-wide exclusive scan of one int per thread (warp shuffles);
// *total gets the block sum. Trailing barrier allows repeated calls.
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

__global__ void scan_chunks_kernel(int len, int* a, int* chunk_sums) {
  int base = blockIdx.x * kScanChunk + threadIdx.x * kScanItems;
  int v[kScanItems];
  int s = 0;
#pragma unroll
  for (int k = 0; k < kScanItems; ++k) {
    v[k] = (base + k < len) ? a[base + k] : 0;
    s += v[k];
  }
  int total;
  int run = block_exclusive_scan(s, &total);
#pragma unroll
  for (int k = 0; k < kScanItems; ++k) {
    if (base + k < len) a[base + k] = run;
    run += v[k];
  }
  if (threadIdx.x == 0) chunk_sums[blockIdx.x] = total;
}

__global__ void scan_sums_kernel(int count, int* sums) {
  int carry = 0;
  for (int base = 0; base < count; base += kSumBlock) {
    int i = base + threadIdx.x;
    int v = (i < count) ? sums[i] : 0;
    int total;
    int excl = block_exclusive_scan(v, &total);
    if (i < count) sums[i] = carry + excl;
    carry += total;
  }
}

__global__ void add_chunk_offsets_kernel(int len, int* a, const int* chunk_sums) {
  int off = chunk_sums[blockIdx.x];
#pragma unroll
  for (int k = 0; k < kScanItems; ++k) {
    int i = blockIdx.x * kScanChunk + k * kScanBlock + threadIdx.x;
    if (i < len) a[i] += off;
  }
}

// Exclusive scan of a[0..len) on the device; tmp needs ceil(len/1024) ints.
static void exclusive_scan_device(int* a, int len, int* tmp) {
  int chunks = (len + kScanChunk - 1) / kScanChunk;
  scan_chunks_kernel<<<chunks, kScanBlock>>>(len, a, tmp);
  scan_sums_kernel<<<1, kSumBlock>>>(chunks, tmp);
  add_chunk_offsets_kernel<<<chunks, kScanBlock>>>(len, a, tmp);
}
// ---- end of scan ----

// Phase 1: key histogram of each 256-element tile (shared atomics), stored
// key-major: table[key * tiles + tile]. After an exclusive scan, entry
// (key, tile) is the first rank of that key within that tile.
__global__ void tile_histogram_kernel(int n, const int* __restrict__ keys, int tiles, int* table) {
  __shared__ int hist[kKeys];
  hist[threadIdx.x] = 0;  // blockDim.x == kKeys
  __syncthreads();
  int i = blockIdx.x * kTile + threadIdx.x;
  if (i < n) atomicAdd(&hist[keys[i]], 1);
  __syncthreads();
  table[threadIdx.x * tiles + blockIdx.x] = hist[threadIdx.x];
}

// Phase 3: rank = scanned (key, tile) entry + number of equal keys earlier in
// the tile, counted by scanning the tile's keys staged in shared memory.
__global__ void rank_kernel(int n, const int* __restrict__ keys, int tiles, const int* __restrict__ table,
                            int* __restrict__ ranks) {
  __shared__ int skeys[kTile];
  int i = blockIdx.x * kTile + threadIdx.x;
  int key = (i < n) ? keys[i] : -1;
  skeys[threadIdx.x] = key;
  __syncthreads();
  if (i < n) {
    int before = 0;
    for (int j = 0; j < threadIdx.x; ++j) before += (skeys[j] == key);
    ranks[i] = table[key * tiles + blockIdx.x] + before;
  }
}

void stableKeyRanks(int n, const int* keys, int* ranks) {
  if (n <= 0) return;
  int tiles = (n + kTile - 1) / kTile;
  int table_len = kKeys * tiles;
  int chunks = (table_len + kScanChunk - 1) / kScanChunk;
  int *dkeys = nullptr, *dranks = nullptr, *dtable = nullptr, *dtmp = nullptr;
  cudaMalloc(&dkeys, static_cast<size_t>(n) * sizeof(int));
  cudaMalloc(&dranks, static_cast<size_t>(n) * sizeof(int));
  cudaMalloc(&dtable, static_cast<size_t>(table_len) * sizeof(int));
  cudaMalloc(&dtmp, static_cast<size_t>(chunks) * sizeof(int));
  cudaMemcpy(dkeys, keys, static_cast<size_t>(n) * sizeof(int), cudaMemcpyHostToDevice);
  tile_histogram_kernel<<<tiles, kBlock>>>(n, dkeys, tiles, dtable);
  exclusive_scan_device(dtable, table_len, dtmp);
  rank_kernel<<<tiles, kBlock>>>(n, dkeys, tiles, dtable, dranks);
  cudaMemcpy(ranks, dranks, static_cast<size_t>(n) * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dkeys);
  cudaFree(dranks);
  cudaFree(dtable);
  cudaFree(dtmp);
}
