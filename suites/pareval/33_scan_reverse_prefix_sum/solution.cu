#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

// output[i] is the inclusive prefix sum of x read back to front, so this is a
// forward scan whose tile loads read x in reverse (still coalesced).
// Single pass with decoupled look-back: each block takes the next tile index
// from an atomic ticket, stages its tile in shared memory, scans it (a
// contiguous run of kItems per thread, then warp shuffles over the thread
// totals) and publishes the tile total; thread 0 walks back over earlier
// tiles until it meets a published inclusive prefix. A tile's state is one
// 64-bit word (status in the high half, the int in the low half), published
// and read with single atomics. Integer sums are exact in any order.

namespace {
constexpr int kThreads = 256;
constexpr int kItems = 8;
constexpr int kTile = kThreads * kItems;
constexpr int kWarps = kThreads / 32;
constexpr unsigned long long kAggregate = 1ull << 32, kPrefix = 2ull << 32;

__device__ __forceinline__ int pad(int i) { return i + (i >> 5); }
}  // namespace

__device__ __forceinline__ unsigned long long pack(unsigned long long status, int v) {
  return status | (unsigned long long)(unsigned)v;
}

__global__ void __launch_bounds__(kThreads)
reverse_scan_lookback(const int* __restrict__ x, int* __restrict__ out, size_t n, unsigned long long* state,
                      unsigned int* ticket) {
  __shared__ int s_tile[kTile + kTile / 32];
  __shared__ int s_warp[kWarps];
  __shared__ int s_carry;
  __shared__ unsigned int s_ticket;

  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  if (tid == 0) s_ticket = atomicAdd(ticket, 1u);
  __syncthreads();
  const size_t t = s_ticket;
  const size_t base = t * (size_t)kTile;

#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    int j = k * kThreads + tid;
    size_t i = base + j;
    s_tile[pad(j)] = i < n ? x[n - 1 - i] : 0;
  }
  __syncthreads();

  int v[kItems];
  int run = 0;
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    run += s_tile[pad(tid * kItems + k)];
    v[k] = run;
  }
  int incl = run;
#pragma unroll
  for (int off = 1; off < 32; off <<= 1) {
    int o = __shfl_up_sync(0xffffffffu, incl, off);
    if (lane >= off) incl += o;
  }
  if (lane == 31) s_warp[warp] = incl;
  __syncthreads();
  if (warp == 0) {
    int w = lane < kWarps ? s_warp[lane] : 0;
#pragma unroll
    for (int off = 1; off < kWarps; off <<= 1) {
      int o = __shfl_up_sync(0xffffffffu, w, off);
      if (lane >= off) w += o;
    }
    if (lane < kWarps) s_warp[lane] = w;
  }
  __syncthreads();
  const int tile_total = s_warp[kWarps - 1];
  const int thread_excl = (warp > 0 ? s_warp[warp - 1] : 0) + (incl - run);

  if (tid == 0) {
    int carry = 0;
    if (t == 0) {
      atomicExch(&state[0], pack(kPrefix, tile_total));
    } else {
      atomicExch(&state[t], pack(kAggregate, tile_total));
      size_t j = t - 1;
      for (;;) {
        unsigned long long w;
        do {
          w = atomicAdd(&state[j], 0ull);
        } while ((w >> 32) == 0ull);
        carry += (int)(unsigned)w;
        if ((w & ~0xffffffffull) == kPrefix) break;
        --j;
      }
      atomicExch(&state[t], pack(kPrefix, carry + tile_total));
    }
    s_carry = carry;
  }
  __syncthreads();
  const int offset = s_carry + thread_excl;
#pragma unroll
  for (int k = 0; k < kItems; ++k) s_tile[pad(tid * kItems + k)] = offset + v[k];
  __syncthreads();
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    int j = k * kThreads + tid;
    size_t i = base + j;
    if (i < n) out[i] = s_tile[pad(j)];
  }
}

void reversePrefixSum(std::vector<int> const& x, std::vector<int> &output) {
  const size_t n = x.size();
  if (n == 0) return;
  const size_t tiles = (n + kTile - 1) / kTile;
  int *d_x = nullptr, *d_out = nullptr;
  unsigned long long* d_state = nullptr;
  cudaMalloc(&d_x, n * sizeof(int));
  cudaMalloc(&d_out, n * sizeof(int));
  cudaMalloc(&d_state, (tiles + 1) * sizeof(unsigned long long));
  unsigned int* d_ticket = reinterpret_cast<unsigned int*>(d_state + tiles);
  cudaMemsetAsync(d_state, 0, (tiles + 1) * sizeof(unsigned long long));
  cudaMemcpy(d_x, x.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  reverse_scan_lookback<<<(unsigned)tiles, kThreads>>>(d_x, d_out, n, d_state, d_ticket);
  cudaMemcpy(output.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d_x);
  cudaFree(d_out);
  cudaFree(d_state);
}
