#include <cuda_runtime.h>
#include <math.h>

// Step 1 (thread_mapping): one thread simulates one path.
// Step 2 (memory_coalescing): draws are path-major, so thread-per-path reads
// would be `steps` floats apart; instead each warp loads its 32 paths' draws
// 32 steps at a time with lanes along the steps: 32 consecutive floats per
// path row, a coalesced read.
// Step 3 (shared_memory_tiling): the 32 x 32 tile is transposed through the
// warp's own shared-memory tile, and each lane then walks its path from it.
// Step 4 (bank_conflict_avoidance): tile rows are padded to 33 floats, so the
// lanes' row stores and their column reads (path r, step t: bank r + t) are
// both conflict-free.
// Step 5 (algorithmic_restructuring): mean and variance of the payoffs come
// from one pass: Welford triples (count, mean, M2) merged with Chan's
// formula, instead of a second pass over stored payoffs.
// Step 6 (warp_shuffle_reduction): triples merge across a warp by shuffles.
// Step 7 (block_tree_reduction): warp triples merge in shared memory; block
// triples merge in a one-block kernel in a fixed order (deterministic), which
// also forms price and standard error on the device.
constexpr int kWarps = 4;
constexpr int kThreads = kWarps * 32;

struct Stats {
  double n, mean, m2;
};

__device__ __forceinline__ Stats merge(Stats a, Stats b) {
  if (b.n == 0.0) return a;
  if (a.n == 0.0) return b;
  Stats s;
  s.n = a.n + b.n;
  double d = b.mean - a.mean;
  s.mean = a.mean + d * (b.n / s.n);
  s.m2 = a.m2 + b.m2 + d * d * (a.n * b.n / s.n);
  return s;
}

__device__ Stats warp_merge(Stats s) {
  for (int off = 16; off > 0; off >>= 1) {
    Stats o;
    o.n = __shfl_down_sync(0xffffffffu, s.n, off);
    o.mean = __shfl_down_sync(0xffffffffu, s.mean, off);
    o.m2 = __shfl_down_sync(0xffffffffu, s.m2, off);
    s = merge(s, o);
  }
  return s;
}

__global__ void asian_paths_kernel(int paths, int steps, const float* __restrict__ z, double s0,
                                   double strike, double drift, double vol,
                                   Stats* __restrict__ block_stats) {
  __shared__ float tile[kWarps][32][33];
  __shared__ Stats warp_stats[kWarps];
  int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  int p0 = (blockIdx.x * kWarps + warp) * 32;
  int p = p0 + lane;
  double s = s0, acc = 0.0;
  for (int t0 = 0; t0 < steps; t0 += 32) {
    int tn = min(32, steps - t0);
    __syncwarp();  // previous tile consumed
    for (int row = 0; row < 32; ++row) {
      int pr = p0 + row;
      if (pr < paths && lane < tn)
        tile[warp][row][lane] = __ldg(&z[(long long)pr * steps + t0 + lane]);
    }
    __syncwarp();
    if (p < paths) {
      for (int t = 0; t < tn; ++t) {
        s *= exp(drift + vol * (double)tile[warp][lane][t]);
        acc += s;
      }
    }
  }
  Stats st = {0.0, 0.0, 0.0};
  if (p < paths) {
    double a = acc / steps;
    st.n = 1.0;
    st.mean = a > strike ? a - strike : 0.0;
  }
  st = warp_merge(st);
  if (lane == 0) warp_stats[warp] = st;
  __syncthreads();
  if (threadIdx.x == 0) {
    Stats b = warp_stats[0];
    for (int w = 1; w < kWarps; ++w) b = merge(b, warp_stats[w]);
    block_stats[blockIdx.x] = b;
  }
}

__global__ void asian_final_kernel(int blocks, const Stats* __restrict__ block_stats, double disc,
                                   double* __restrict__ out) {
  __shared__ Stats warp_stats[kWarps];
  // Each thread folds a contiguous range of blocks in order, then a fixed
  // tree: the result does not depend on scheduling.
  int per = (blocks + kThreads - 1) / kThreads;
  int b0 = threadIdx.x * per, b1 = min(blocks, b0 + per);
  Stats st = {0.0, 0.0, 0.0};
  for (int b = b0; b < b1; ++b) st = merge(st, block_stats[b]);
  st = warp_merge(st);
  int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  if (lane == 0) warp_stats[warp] = st;
  __syncthreads();
  if (threadIdx.x == 0) {
    Stats t = warp_stats[0];
    for (int w = 1; w < kWarps; ++w) t = merge(t, warp_stats[w]);
    out[0] = disc * t.mean;
    out[1] = disc * sqrt(t.m2 / (t.n - 1.0) / t.n);
  }
}

void mcAsianCallPrice(int paths, int steps, const float* z, double s0, double strike, double r,
                      double sigma, double T, double& price, double& stderr_out) {
  if (paths <= 0 || steps <= 0) return;
  double dt = T / steps;
  double drift = (r - 0.5 * sigma * sigma) * dt;
  double vol = sigma * sqrt(dt);
  size_t ze = (size_t)paths * steps;
  float* d_z = nullptr;
  Stats* d_stats = nullptr;
  double* d_out = nullptr;
  int blocks = (paths + kThreads - 1) / kThreads;
  cudaMalloc(&d_z, ze * sizeof(float));
  cudaMalloc(&d_stats, (size_t)blocks * sizeof(Stats));
  cudaMalloc(&d_out, 2 * sizeof(double));
  cudaMemcpy(d_z, z, ze * sizeof(float), cudaMemcpyHostToDevice);
  asian_paths_kernel<<<blocks, kThreads>>>(paths, steps, d_z, s0, strike, drift, vol, d_stats);
  asian_final_kernel<<<1, kThreads>>>(blocks, d_stats, exp(-r * T), d_out);
  double out[2] = {0.0, 0.0};
  cudaMemcpy(out, d_out, 2 * sizeof(double), cudaMemcpyDeviceToHost);
  price = out[0];
  stderr_out = out[1];
  cudaFree(d_z);
  cudaFree(d_stats);
  cudaFree(d_out);
}
