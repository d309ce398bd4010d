#include <cuda_runtime.h>
#include <cmath>
#include <cstdint>

struct Segment {
  int x1, y1, x2, y2;
};

// Step 1 (thread_mapping): each pair (i, j), i < j, is tested by one thread:
// the thread owning segment i of a row tile walks the segments j of a column
// tile.
// Step 2 (load_balancing): the pair space is a triangle, so a thread per i
// looping over all j > i would give the first segments n times the work of
// the last. Instead blocks take tile pairs (I, J) with I <= J of the upper
// triangle, linearised, so every block does one tile x tile square (the
// diagonal blocks half of one) and the work is even.
// Step 3 (shared_memory_tiling): the block stages the 128 segments of tile J
// in shared memory; each is then read by all 128 threads.
// Step 4 (vectorized_memory_access): a 16-byte segment is one int4 load, from
// global memory when staging and from shared memory (a broadcast) when
// testing.
// Step 5 (register_caching): each thread keeps its segment i and its bounding
// box in registers for the whole tile.
// Step 6 (early_exit): a pair whose bounding boxes are disjoint cannot meet;
// that integer test skips the four 64-bit orientation products for most
// far-apart pairs.
// Step 7 (warp_shuffle_reduction): per-thread counts are summed within each
// warp with __shfl_down_sync.
// Step 8 (atomic_aggregation): warp sums meet in shared memory and one 64-bit
// atomicAdd per block adds the block's count.
constexpr int kSiTile = 128;

__device__ __forceinline__ int si_orient(long long ax, long long ay, long long bx, long long by, long long cx,
                                         long long cy) {
  long long v = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
  return (v > 0) - (v < 0);
}

__device__ __forceinline__ bool si_within(long long ax, long long ay, long long bx, long long by, long long cx,
                                          long long cy) {
  return cx >= min(ax, bx) && cx <= max(ax, bx) && cy >= min(ay, by) && cy <= max(ay, by);
}

__device__ __forceinline__ bool si_intersect(int4 s, int4 t) {
  int o1 = si_orient(s.x, s.y, s.z, s.w, t.x, t.y);
  int o2 = si_orient(s.x, s.y, s.z, s.w, t.z, t.w);
  int o3 = si_orient(t.x, t.y, t.z, t.w, s.x, s.y);
  int o4 = si_orient(t.x, t.y, t.z, t.w, s.z, s.w);
  if (o1 != o2 && o3 != o4) return true;
  if (o1 == 0 && si_within(s.x, s.y, s.z, s.w, t.x, t.y)) return true;
  if (o2 == 0 && si_within(s.x, s.y, s.z, s.w, t.z, t.w)) return true;
  if (o3 == 0 && si_within(t.x, t.y, t.z, t.w, s.x, s.y)) return true;
  if (o4 == 0 && si_within(t.x, t.y, t.z, t.w, s.z, s.w)) return true;
  return false;
}

// Number of tile pairs in rows 0 .. I-1 of the upper triangle of T tiles.
__device__ __forceinline__ long long si_row_start(long long I, long long T) { return I * T - I * (I - 1) / 2; }

__global__ void segment_pairs_kernel(const int4* __restrict__ segs, int n, int tiles,
                                     unsigned long long* __restrict__ count) {
  __shared__ int4 tile[kSiTile];
  __shared__ int warp_counts[kSiTile / 32];
  // Block b -> tile pair (I, J), I <= J, rows of the triangle in order.
  const long long b = blockIdx.x, T = tiles;
  long long I = (long long)floor(((2.0 * T + 1.0) - sqrt((2.0 * T + 1.0) * (2.0 * T + 1.0) - 8.0 * b)) / 2.0);
  if (I < 0) I = 0;
  while (I > 0 && si_row_start(I, T) > b) --I;
  while (si_row_start(I + 1, T) <= b) ++I;
  const long long J = I + (b - si_row_start(I, T));
  const int j0 = (int)(J * kSiTile);
  if (j0 + (int)threadIdx.x < n) tile[threadIdx.x] = segs[j0 + threadIdx.x];
  const int i = (int)(I * kSiTile) + threadIdx.x;
  int4 s = make_int4(0, 0, 0, 0);
  if (i < n) s = segs[i];
  const int sx0 = min(s.x, s.z), sx1 = max(s.x, s.z), sy0 = min(s.y, s.w), sy1 = max(s.y, s.w);
  __syncthreads();
  int hits = 0;
  if (i < n) {
    const int kend = min(kSiTile, n - j0);
    for (int k = (I == J) ? threadIdx.x + 1 : 0; k < kend; ++k) {
      const int4 t = tile[k];
      if (max(t.x, t.z) < sx0 || min(t.x, t.z) > sx1 || max(t.y, t.w) < sy0 || min(t.y, t.w) > sy1) continue;
      hits += si_intersect(s, t) ? 1 : 0;
    }
  }
  for (int off = 16; off > 0; off >>= 1) hits += __shfl_down_sync(0xffffffffu, hits, off);
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) warp_counts[warp] = hits;
  __syncthreads();
  if (threadIdx.x == 0) {
    long long total = 0;
    for (int w = 0; w < kSiTile / 32; ++w) total += warp_counts[w];
    if (total != 0) atomicAdd(count, (unsigned long long)total);
  }
}

int64_t countSegmentIntersections(const Segment* segs, int n) {
  unsigned long long* dcount = nullptr;
  cudaMalloc(&dcount, sizeof(unsigned long long));
  cudaMemset(dcount, 0, sizeof(unsigned long long));
  int4* dsegs = nullptr;
  if (n >= 2) {
    static_assert(sizeof(Segment) == sizeof(int4), "a Segment is four ints");
    cudaMalloc(&dsegs, (size_t)n * sizeof(int4));
    cudaMemcpy(dsegs, segs, (size_t)n * sizeof(int4), cudaMemcpyHostToDevice);
    long long tiles = (n + kSiTile - 1) / kSiTile;
    long long blocks = tiles * (tiles + 1) / 2;
    segment_pairs_kernel<<<(unsigned)blocks, kSiTile>>>(dsegs, n, (int)tiles, dcount);
  }
  unsigned long long result = 0;
  cudaMemcpy(&result, dcount, sizeof(result), cudaMemcpyDeviceToHost);
  cudaFree(dsegs);
  cudaFree(dcount);
  return (int64_t)result;
}
