#include <cuda_runtime.h>
#include <cstddef>

// Kernel form: one launch with at least N threads (1-D blocks, blockDim a
// multiple of 32). Single-pass scan with decoupled look-back: each block takes
// tiles in order from an atomic ticket, scans its tile with warp shuffles,
// publishes the tile total, and its thread 0 walks back over earlier tiles
// (adding totals until it meets a published inclusive prefix) to get the
// tile's carry. The look-back state lives in static device memory; the last
// block to finish clears it, so every launch starts from a clean state.

#define PS_MAX_TILES (1 << 16)

__device__ unsigned int g_ps_status[PS_MAX_TILES];         // 0 none, 1 aggregate, 2 prefix
__device__ unsigned long long g_ps_aggregate[PS_MAX_TILES];  // tile totals (double bits)
__device__ unsigned long long g_ps_prefix[PS_MAX_TILES];     // inclusive prefixes (double bits)
__device__ unsigned int g_ps_ticket = 0;
__device__ unsigned int g_ps_done = 0;

__device__ __forceinline__ void ps_publish(unsigned long long* slot, unsigned int* status, double v, unsigned s) {
  atomicExch(slot, (unsigned long long)__double_as_longlong(v));
  __threadfence();
  atomicExch(status, s);
}

__device__ __forceinline__ double ps_load(unsigned long long* p) {
  return __longlong_as_double((long long)atomicAdd(p, 0ull));
}

__global__ void prefixSum(const double *x, double *output, size_t N) {
  __shared__ double s_warp[32];
  __shared__ double s_carry;
  __shared__ unsigned int s_ticket;
  __shared__ int s_last;

  const unsigned tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const unsigned warps = blockDim.x >> 5;
  // Each thread scans `per` consecutive values; per > 1 only when N needs
  // more tiles than the state arrays hold.
  const size_t cap = (size_t)blockDim.x * PS_MAX_TILES;
  const size_t per = N > cap ? (N + cap - 1) / cap : 1;
  const size_t tile = per * blockDim.x;
  const size_t tiles = (N + tile - 1) / tile;

  for (;;) {
    if (tid == 0) s_ticket = atomicAdd(&g_ps_ticket, 1u);
    __syncthreads();
    const size_t t = s_ticket;
    if (t >= tiles) break;
    const size_t first = t * tile + tid * per;

    double run = 0.0;
    for (size_t k = 0; k < per; ++k) {
      size_t i = first + k;
      if (i < N) run += x[i];
    }
    double incl = run;
    for (unsigned off = 1; off < 32; off <<= 1) {
      double o = __shfl_up_sync(0xffffffffu, incl, off);
      if (lane >= off) incl += o;
    }
    if (lane == 31) s_warp[warp] = incl;
    __syncthreads();
    if (warp == 0) {
      double w = lane < warps ? s_warp[lane] : 0.0;
      for (unsigned off = 1; off < 32; off <<= 1) {
        double o = __shfl_up_sync(0xffffffffu, w, off);
        if (lane >= off) w += o;
      }
      if (lane < warps) s_warp[lane] = w;
    }
    __syncthreads();
    const double tile_total = s_warp[warps - 1];
    const double thread_excl = (warp > 0 ? s_warp[warp - 1] : 0.0) + (incl - run);

    if (tid == 0) {
      double carry = 0.0;
      if (t == 0) {
        ps_publish(&g_ps_prefix[0], &g_ps_status[0], tile_total, 2u);
      } else {
        ps_publish(&g_ps_aggregate[t], &g_ps_status[t], tile_total, 1u);
        size_t j = t - 1;
        for (;;) {
          unsigned s;
          do {
            s = atomicAdd(&g_ps_status[j], 0u);
          } while (s == 0u);
          __threadfence();
          if (s == 2u) {
            carry = ps_load(&g_ps_prefix[j]) + carry;
            break;
          }
          carry = ps_load(&g_ps_aggregate[j]) + carry;
          --j;
        }
        ps_publish(&g_ps_prefix[t], &g_ps_status[t], carry + tile_total, 2u);
      }
      s_carry = carry;
    }
    __syncthreads();
    double acc = s_carry + thread_excl;
    for (size_t k = 0; k < per; ++k) {
      size_t i = first + k;
      if (i < N) {
        acc += x[i];
        output[i] = acc;
      }
    }
    __syncthreads();  // s_warp, s_carry and s_ticket are reused by the next tile
  }

  // The last block to finish resets the look-back state for the next launch.
  __syncthreads();
  if (tid == 0) {
    __threadfence();
    s_last = atomicAdd(&g_ps_done, 1u) == gridDim.x * gridDim.y * gridDim.z - 1;
  }
  __syncthreads();
  if (s_last) {
    for (size_t i = tid; i < tiles; i += blockDim.x) atomicExch(&g_ps_status[i], 0u);
    if (tid == 0) {
      atomicExch(&g_ps_ticket, 0u);
      atomicExch(&g_ps_done, 0u);
    }
  }
}
