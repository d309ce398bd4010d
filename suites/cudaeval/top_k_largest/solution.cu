#include <cuda_runtime.h>
#include <cstdint>

// Trajectory:
// 1 thread_mapping: every element is examined by a thread.
// 2 algorithmic_restructuring: instead of sorting or a heap, a radix select
//   finds the k-th largest value T exactly: floats are mapped to unsigned keys
//   that order like the floats, and four 8-bit histogram passes (most
//   significant byte first, each restricted to keys matching the prefix chosen
//   so far) narrow T down. The winners are then the keys > T plus the right
//   number of copies of T; only those k candidates are finally ordered (by a
//   rank computation, O(k^2) for the small k this is meant for).
// 3 atomic_aggregation: the histograms are privatised per block in shared
//   memory, and the gather of winners uses one atomicAdd per warp (ballot +
//   popc gives each lane its slot).
// 4 grid_stride_loop: a grid of a few blocks per SM strides over the data in
//   every pass (warp-uniform trip counts so ballots are safe).
// 5 vectorized_memory_access: passes read the data as float4.
// 6 minimize_transfers: the data go to the device once; the digit choice after
//   each pass runs in a one-thread kernel on device-resident state, so no
//   intermediate result crosses PCIe; only the k results come back.
constexpr int kTkThreads = 256;

struct TkState {
  uint32_t prefix;  // key bits decided so far
  uint32_t mask;    // which bits are decided
  int remaining;    // how many of the keys matching prefix are still needed
  int pad;
};

__device__ __forceinline__ uint32_t tk_key(float f) {
  uint32_t u = __float_as_uint(f);
  return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

__device__ __forceinline__ float tk_value(uint32_t key) {
  uint32_t u = (key & 0x80000000u) ? (key & 0x7fffffffu) : ~key;
  return __uint_as_float(u);
}

__global__ void tk_init_kernel(TkState* st, int k) {
  st->prefix = 0;
  st->mask = 0;
  st->remaining = k;
  st->pad = 0;
}

__global__ void tk_hist_kernel(const float* __restrict__ x, int n, int shift, const TkState* __restrict__ st,
                               unsigned int* __restrict__ hist) {
  __shared__ unsigned int sh[256];
  sh[threadIdx.x] = 0;  // blockDim.x == 256
  __syncthreads();
  const uint32_t prefix = st->prefix, mask = st->mask;
  const float4* x4 = reinterpret_cast<const float4*>(x);
  const int n4 = n / 4;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += gridDim.x * blockDim.x) {
    float4 v = x4[i];
    uint32_t k0 = tk_key(v.x), k1 = tk_key(v.y), k2 = tk_key(v.z), k3 = tk_key(v.w);
    if ((k0 & mask) == prefix) atomicAdd(&sh[(k0 >> shift) & 0xffu], 1u);
    if ((k1 & mask) == prefix) atomicAdd(&sh[(k1 >> shift) & 0xffu], 1u);
    if ((k2 & mask) == prefix) atomicAdd(&sh[(k2 >> shift) & 0xffu], 1u);
    if ((k3 & mask) == prefix) atomicAdd(&sh[(k3 >> shift) & 0xffu], 1u);
  }
  int tail = blockIdx.x * blockDim.x + threadIdx.x;
  if (tail < n - n4 * 4) {
    uint32_t kk = tk_key(x[n4 * 4 + tail]);
    if ((kk & mask) == prefix) atomicAdd(&sh[(kk >> shift) & 0xffu], 1u);
  }
  __syncthreads();
  unsigned int c = sh[threadIdx.x];
  if (c != 0) atomicAdd(&hist[threadIdx.x], c);
}

// Walks the digits from the largest down and fixes the digit that contains the
// remaining-th largest matching key.
__global__ void tk_select_kernel(const unsigned int* __restrict__ hist, int shift, TkState* st) {
  int remaining = st->remaining;
  unsigned int cum = 0;
  int chosen = 0;
  for (int d = 255; d >= 0; --d) {
    unsigned int c = hist[d];
    if (cum + c >= (unsigned int)remaining) {
      chosen = d;
      break;
    }
    cum += c;
  }
  st->remaining = remaining - (int)cum;
  st->prefix |= (uint32_t)chosen << shift;
  st->mask |= 0xffu << shift;
}

__device__ __forceinline__ void tk_gather_one(uint32_t key, bool valid, uint32_t threshold,
                                              unsigned int* __restrict__ counter, uint32_t* __restrict__ cand,
                                              int lane) {
  bool win = valid && key > threshold;
  unsigned ballot = __ballot_sync(0xffffffffu, win);
  if (ballot == 0) return;  // warp-uniform
  unsigned int base = 0;
  int leader = __ffs(ballot) - 1;
  if (lane == leader) base = atomicAdd(counter, (unsigned int)__popc(ballot));
  base = __shfl_sync(0xffffffffu, base, leader);
  if (win) cand[base + __popc(ballot & ((1u << lane) - 1u))] = key;
}

__global__ void tk_gather_kernel(const float* __restrict__ x, int n, const TkState* __restrict__ st,
                                 unsigned int* __restrict__ counter, uint32_t* __restrict__ cand) {
  const uint32_t threshold = st->prefix;  // full key of the k-th largest value
  const int lane = threadIdx.x & 31;
  const float4* x4 = reinterpret_cast<const float4*>(x);
  const int n4 = n / 4;
  const int stride = gridDim.x * blockDim.x;
  // Warp-uniform loop: all lanes of a warp iterate together.
  for (int i0 = blockIdx.x * blockDim.x + (threadIdx.x & ~31); i0 < n4; i0 += stride) {
    int i = i0 + lane;
    bool valid = i < n4;
    float4 v = valid ? x4[i] : make_float4(0.f, 0.f, 0.f, 0.f);
    tk_gather_one(tk_key(v.x), valid, threshold, counter, cand, lane);
    tk_gather_one(tk_key(v.y), valid, threshold, counter, cand, lane);
    tk_gather_one(tk_key(v.z), valid, threshold, counter, cand, lane);
    tk_gather_one(tk_key(v.w), valid, threshold, counter, cand, lane);
  }
  if (blockIdx.x == 0 && threadIdx.x < 32) {  // the n % 4 tail, by one full warp
    int t = n4 * 4 + lane;
    bool valid = t < n;
    tk_gather_one(valid ? tk_key(x[t]) : 0u, valid, threshold, counter, cand, lane);
  }
}

// cand[0 .. k-remaining) hold the keys > T; fill the rest with T.
__global__ void tk_fill_kernel(const TkState* __restrict__ st, int k, uint32_t* __restrict__ cand) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < k && i >= k - st->remaining) cand[i] = st->prefix;
}

// Descending order by rank: larger keys first, equal keys by candidate index.
__global__ void tk_rank_kernel(const uint32_t* __restrict__ cand, int k, float* __restrict__ out) {
  __shared__ uint32_t tile[kTkThreads];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t mine = (i < k) ? cand[i] : 0u;
  int rank = 0;
  for (int t0 = 0; t0 < k; t0 += kTkThreads) {
    int j = t0 + threadIdx.x;
    tile[threadIdx.x] = (j < k) ? cand[j] : 0u;
    __syncthreads();
    int lim = min(kTkThreads, k - t0);
    for (int q = 0; q < lim; ++q) {
      uint32_t o = tile[q];
      rank += (o > mine) || (o == mine && t0 + q < i);
    }
    __syncthreads();
  }
  if (i < k) out[rank] = tk_value(mine);
}

void topKLargest(const float* x, int n, int k, float* out) {
  if (n <= 0 || k <= 0) return;
  if (k > n) k = n;
  float *dx = nullptr, *dout = nullptr;
  uint32_t* dcand = nullptr;
  unsigned int *dhist = nullptr, *dcounter = nullptr;
  TkState* dst = nullptr;
  cudaMalloc(&dx, (size_t)n * sizeof(float));
  cudaMalloc(&dout, (size_t)k * sizeof(float));
  cudaMalloc(&dcand, (size_t)k * sizeof(uint32_t));
  cudaMalloc(&dhist, 4 * 256 * sizeof(unsigned int));
  cudaMalloc(&dcounter, sizeof(unsigned int));
  cudaMalloc(&dst, sizeof(TkState));
  cudaMemcpy(dx, x, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(dhist, 0, 4 * 256 * sizeof(unsigned int));
  cudaMemset(dcounter, 0, sizeof(unsigned int));
  int device = 0, sms = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  if (sms <= 0) sms = 80;
  int needed = (n / 4 + kTkThreads - 1) / kTkThreads;
  int grid = needed < sms * 4 ? needed : sms * 4;
  if (grid < 1) grid = 1;
  tk_init_kernel<<<1, 1>>>(dst, k);
  for (int pass = 0; pass < 4; ++pass) {
    int shift = 24 - 8 * pass;
    tk_hist_kernel<<<grid, kTkThreads>>>(dx, n, shift, dst, dhist + pass * 256);
    tk_select_kernel<<<1, 1>>>(dhist + pass * 256, shift, dst);
  }
  tk_gather_kernel<<<grid, kTkThreads>>>(dx, n, dst, dcounter, dcand);
  tk_fill_kernel<<<(k + 255) / 256, 256>>>(dst, k, dcand);
  tk_rank_kernel<<<(k + kTkThreads - 1) / kTkThreads, kTkThreads>>>(dcand, k, dout);
  cudaMemcpy(out, dout, (size_t)k * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dout);
  cudaFree(dcand);
  cudaFree(dhist);
  cudaFree(dcounter);
  cudaFree(dst);
}
