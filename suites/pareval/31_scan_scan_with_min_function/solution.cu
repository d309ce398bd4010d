#include <cuda_runtime.h>
#include <cmath>
#include <cstddef>
#include <vector>

// Single-pass running-minimum scan with decoupled look-back, in place.
// Each block takes the next tile index from an atomic ticket, stages its tile
// of kTile floats in shared memory with coalesced loads, scans it with fminf
// (a contiguous run of kItems per thread, then warp shuffles over the thread
// minima), and publishes the tile minimum. Thread 0 walks back over earlier
// tiles until it meets a published inclusive prefix. A tile's state is one
// 64-bit word (status in the high half, the float's bits in the low half), so
// publishing and reading it are single atomics. x is read and written once.

namespace {
constexpr int kThreads = 256;
constexpr int kItems = 8;
constexpr int kTile = kThreads * kItems;
constexpr int kWarps = kThreads / 32;
constexpr unsigned long long kAggregate = 1ull << 32, kPrefix = 2ull << 32;

__device__ __forceinline__ int pad(int i) { return i + (i >> 5); }
}  // namespace

__device__ __forceinline__ unsigned long long pack(unsigned long long status, float v) {
  return status | (unsigned long long)__float_as_uint(v);
}

__global__ void __launch_bounds__(kThreads)
running_min_lookback(float* x, size_t n, unsigned long long* state, unsigned int* ticket) {
  __shared__ float s_tile[kTile + kTile / 32];
  __shared__ float s_warp[kWarps];
  __shared__ float s_carry;
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
    s_tile[pad(j)] = i < n ? x[i] : INFINITY;
  }
  __syncthreads();

  float v[kItems];
  float run = INFINITY;
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    run = fminf(run, s_tile[pad(tid * kItems + k)]);
    v[k] = run;
  }

  // Exclusive minimum of the thread minima before this thread.
  float incl = run;
#pragma unroll
  for (int off = 1; off < 32; off <<= 1) {
    float o = __shfl_up_sync(0xffffffffu, incl, off);
    if (lane >= off) incl = fminf(incl, o);
  }
  float excl = __shfl_up_sync(0xffffffffu, incl, 1);
  if (lane == 0) excl = INFINITY;
  if (lane == 31) s_warp[warp] = incl;
  __syncthreads();
  if (warp == 0) {
    float w = lane < kWarps ? s_warp[lane] : INFINITY;
#pragma unroll
    for (int off = 1; off < kWarps; off <<= 1) {
      float o = __shfl_up_sync(0xffffffffu, w, off);
      if (lane >= off) w = fminf(w, o);
    }
    if (lane < kWarps) s_warp[lane] = w;
  }
  __syncthreads();
  const float tile_min = s_warp[kWarps - 1];
  if (warp > 0) excl = fminf(excl, s_warp[warp - 1]);

  if (tid == 0) {
    float carry = INFINITY;
    if (t == 0) {
      atomicExch(&state[0], pack(kPrefix, tile_min));
    } else {
      atomicExch(&state[t], pack(kAggregate, tile_min));
      size_t j = t - 1;
      for (;;) {
        unsigned long long w;
        do {
          w = atomicAdd(&state[j], 0ull);
        } while ((w >> 32) == 0ull);
        carry = fminf(carry, __uint_as_float((unsigned)w));
        if ((w & ~0xffffffffull) == kPrefix) break;
        --j;
      }
      atomicExch(&state[t], pack(kPrefix, fminf(carry, tile_min)));
    }
    s_carry = carry;
  }
  __syncthreads();
  const float prefix = fminf(s_carry, excl);
#pragma unroll
  for (int k = 0; k < kItems; ++k) s_tile[pad(tid * kItems + k)] = fminf(prefix, v[k]);
  __syncthreads();
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    int j = k * kThreads + tid;
    size_t i = base + j;
    if (i < n) x[i] = s_tile[pad(j)];
  }
}

void partialMinimums(std::vector<float> &x) {
  const size_t n = x.size();
  if (n < 2) return;
  const size_t tiles = (n + kTile - 1) / kTile;
  float* d_x = nullptr;
  unsigned long long* d_state = nullptr;
  cudaMalloc(&d_x, n * sizeof(float));
  cudaMalloc(&d_state, (tiles + 1) * sizeof(unsigned long long));
  unsigned int* d_ticket = reinterpret_cast<unsigned int*>(d_state + tiles);
  cudaMemsetAsync(d_state, 0, (tiles + 1) * sizeof(unsigned long long));
  cudaMemcpy(d_x, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  running_min_lookback<<<(unsigned)tiles, kThreads>>>(d_x, n, d_state, d_ticket);
  cudaMemcpy(x.data(), d_x, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_x);
  cudaFree(d_state);
}
