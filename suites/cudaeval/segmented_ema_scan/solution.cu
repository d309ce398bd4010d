#include <cuda_runtime.h>
#include <cstddef>

constexpr int kThreads = 256;
constexpr int kItems = 8;
constexpr int kTileElems = kThreads * kItems;

// An affine map y -> a * y + b. compose(p, q) applies p first, then q.
struct Affine {
  float a, b;
};

__device__ __forceinline__ Affine compose(Affine p, Affine q) { return Affine{q.a * p.a, q.a * p.b + q.b}; }

// Step 5 (warp_shuffle_reduction): inclusive scan of Affine maps over the
// block (shuffles within warps, then the warp totals in shared memory).
// Returns the exclusive prefix of this thread; *total gets the block's map.
__device__ Affine block_exclusive_scan(Affine v, Affine* total) {
  __shared__ Affine warp_tot[kThreads / 32];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  Affine inc = v;
  for (int off = 1; off < 32; off <<= 1) {
    Affine t{__shfl_up_sync(0xffffffffu, inc.a, off), __shfl_up_sync(0xffffffffu, inc.b, off)};
    if (lane >= off) inc = compose(t, inc);
  }
  if (lane == 31) warp_tot[warp] = inc;
  __syncthreads();
  if (warp == 0) {
    Affine w = lane < kThreads / 32 ? warp_tot[lane] : Affine{1.0f, 0.0f};
    for (int off = 1; off < kThreads / 32; off <<= 1) {
      Affine t{__shfl_up_sync(0xffffffffu, w.a, off), __shfl_up_sync(0xffffffffu, w.b, off)};
      if (lane >= off) w = compose(t, w);
    }
    if (lane < kThreads / 32) warp_tot[lane] = w;
  }
  __syncthreads();
  // exclusive within the warp: the inclusive value of lane - 1
  Affine ex{__shfl_up_sync(0xffffffffu, inc.a, 1), __shfl_up_sync(0xffffffffu, inc.b, 1)};
  if (lane == 0) ex = Affine{1.0f, 0.0f};
  if (warp > 0) ex = compose(warp_tot[warp - 1], ex);
  *total = warp_tot[kThreads / 32 - 1];
  __syncthreads();
  return ex;
}

// Step 3 (register_tiling): each thread owns kItems consecutive readings and
// composes their maps sequentially in registers. Step 6 (memory_coalescing):
// the tile's sensor ids and values are first loaded striped (consecutive
// threads, consecutive addresses) into shared memory, then read blocked.
__device__ Affine thread_aggregate(int base, int n, const int* sensor, const float* x, const float* alpha,
                                   Affine* maps) {
  __shared__ int s_sensor[kTileElems + 1];
  __shared__ float s_x[kTileElems];
  for (int t = threadIdx.x; t < kTileElems; t += kThreads) {
    int i = base + t;
    if (i < n) {
      s_sensor[t + 1] = sensor[i];
      s_x[t] = x[i];
    }
  }
  if (threadIdx.x == 0) s_sensor[0] = base > 0 ? sensor[base - 1] : -1;
  __syncthreads();
  Affine agg{1.0f, 0.0f};
  for (int j = 0; j < kItems; ++j) {
    int t = threadIdx.x * kItems + j;
    int i = base + t;
    // Step 2 (algorithmic_restructuring): reading i is the affine map
    // y -> m.a * y + m.b; a run start ignores everything before it (a = 0),
    // so the restarting recurrence becomes one associative scan.
    Affine m{1.0f, 0.0f};
    if (i < n) {
      int s = s_sensor[t + 1];
      if (i == 0 || s_sensor[t] != s) {
        m = Affine{0.0f, s_x[t]};
      } else {
        float al = __ldg(&alpha[s]);
        m = Affine{1.0f - al, al * s_x[t]};
      }
    }
    maps[j] = m;
    agg = compose(agg, m);
  }
  __syncthreads();
  return agg;
}

// Step 4 (prefix_scan), phase 1: the map of every tile.
__global__ void tile_aggregate_kernel(int n, const int* __restrict__ sensor, const float* __restrict__ x,
                                      const float* __restrict__ alpha, Affine* __restrict__ tile_maps) {
  Affine maps[kItems];
  Affine agg = thread_aggregate(blockIdx.x * kTileElems, n, sensor, x, alpha, maps);
  Affine total;
  block_exclusive_scan(agg, &total);
  if (threadIdx.x == 0) tile_maps[blockIdx.x] = total;
}

// Phase 2: exclusive scan of the tile maps by one block, in chunks.
__global__ void tile_scan_kernel(int ntiles, Affine* __restrict__ tile_maps) {
  Affine carry{1.0f, 0.0f};
  for (int base = 0; base < ntiles; base += kThreads) {
    int i = base + threadIdx.x;
    Affine v = i < ntiles ? tile_maps[i] : Affine{1.0f, 0.0f};
    Affine total;
    Affine ex = block_exclusive_scan(v, &total);
    if (i < ntiles) tile_maps[i] = compose(carry, ex);
    carry = compose(carry, total);
  }
}

// Phase 3. Step 7 (kernel_fusion): the maps are recomputed from the inputs
// here instead of being stored by phase 1 and read back; the thread's prefix
// (tile prefix, then block prefix) is applied to its readings in order. The
// start value is irrelevant: element 0 is a run start (a = 0).
__global__ void tile_apply_kernel(int n, const int* __restrict__ sensor, const float* __restrict__ x,
                                  const float* __restrict__ alpha, const Affine* __restrict__ tile_prefix,
                                  float* __restrict__ y) {
  __shared__ float s_y[kTileElems];
  int base = blockIdx.x * kTileElems;
  Affine maps[kItems];
  Affine agg = thread_aggregate(base, n, sensor, x, alpha, maps);
  Affine total;
  Affine ex = block_exclusive_scan(agg, &total);
  Affine pre = compose(tile_prefix[blockIdx.x], ex);
  float v = pre.b;  // y before this thread's first reading (pre.a * y0 + pre.b, y0 = 0)
  for (int j = 0; j < kItems; ++j) {
    v = maps[j].a * v + maps[j].b;
    s_y[threadIdx.x * kItems + j] = v;
  }
  __syncthreads();
  for (int t = threadIdx.x; t < kTileElems; t += kThreads) {
    int i = base + t;
    if (i < n) y[i] = s_y[t];
  }
}

void sensorEma(int n, const int* sensor, const float* x, const float* alpha, float* y) {
  if (n <= 0) return;
  int nalpha = n / 16 + 1;
  int ntiles = (n + kTileElems - 1) / kTileElems;
  int* dsensor = nullptr;
  float *dx = nullptr, *dalpha = nullptr, *dy = nullptr;
  Affine* dtiles = nullptr;
  cudaMalloc(&dsensor, (size_t)n * sizeof(int));
  cudaMalloc(&dx, (size_t)n * sizeof(float));
  cudaMalloc(&dalpha, (size_t)nalpha * sizeof(float));
  cudaMalloc(&dy, (size_t)n * sizeof(float));
  cudaMalloc(&dtiles, (size_t)ntiles * sizeof(Affine));
  cudaMemcpy(dsensor, sensor, (size_t)n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(dx, x, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dalpha, alpha, (size_t)nalpha * sizeof(float), cudaMemcpyHostToDevice);
  // Step 1 (thread_mapping): every thread owns kItems readings of a tile.
  tile_aggregate_kernel<<<ntiles, kThreads>>>(n, dsensor, dx, dalpha, dtiles);
  tile_scan_kernel<<<1, kThreads>>>(ntiles, dtiles);
  tile_apply_kernel<<<ntiles, kThreads>>>(n, dsensor, dx, dalpha, dtiles, dy);
  cudaMemcpy(y, dy, (size_t)n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(dsensor);
  cudaFree(dx);
  cudaFree(dalpha);
  cudaFree(dy);
  cudaFree(dtiles);
}
