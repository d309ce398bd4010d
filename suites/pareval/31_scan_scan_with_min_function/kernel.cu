#include <cuda_runtime.h>
#include <cmath>
#include <cstddef>

// Kernel form: one launch with at least N threads (1-D blocks, blockDim a
// multiple of 32), x updated in place. Single-pass running-minimum scan with
// decoupled look-back: blocks take tiles in order from an atomic ticket, scan
// their tile with warp shuffles, publish the tile minimum, and thread 0 walks
// back over earlier tiles until it meets a published inclusive prefix. Each
// tile reads only its own elements before writing them, so the in-place update
// is race free. A tile's state is one 64-bit word (status in the high half,
// float bits in the low half) in static device memory; the last block to
// finish clears it for the next launch.

#define PM_MAX_TILES (1 << 16)

__device__ unsigned long long g_pm_state[PM_MAX_TILES];
__device__ unsigned int g_pm_ticket = 0;
__device__ unsigned int g_pm_done = 0;

__device__ __forceinline__ unsigned long long pm_pack(unsigned long long status, float v) {
  return (status << 32) | (unsigned long long)__float_as_uint(v);
}

__global__ void partialMinimums(float *x, size_t N) {
  __shared__ float s_warp[32];
  __shared__ float s_carry;
  __shared__ unsigned int s_ticket;
  __shared__ int s_last;

  const unsigned tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const unsigned warps = blockDim.x >> 5;
  const size_t cap = (size_t)blockDim.x * PM_MAX_TILES;
  const size_t per = N > cap ? (N + cap - 1) / cap : 1;  // values per thread
  const size_t tile = per * blockDim.x;
  const size_t tiles = (N + tile - 1) / tile;

  for (;;) {
    if (tid == 0) s_ticket = atomicAdd(&g_pm_ticket, 1u);
    __syncthreads();
    const size_t t = s_ticket;
    if (t >= tiles) break;
    const size_t first = t * tile + tid * per;

    float run = INFINITY;
    for (size_t k = 0; k < per; ++k) {
      size_t i = first + k;
      if (i < N) run = fminf(run, x[i]);
    }
    float incl = run;
    for (unsigned off = 1; off < 32; off <<= 1) {
      float o = __shfl_up_sync(0xffffffffu, incl, off);
      if (lane >= off) incl = fminf(incl, o);
    }
    float excl = __shfl_up_sync(0xffffffffu, incl, 1);
    if (lane == 0) excl = INFINITY;
    if (lane == 31) s_warp[warp] = incl;
    __syncthreads();
    if (warp == 0) {
      float w = lane < warps ? s_warp[lane] : INFINITY;
      for (unsigned off = 1; off < 32; off <<= 1) {
        float o = __shfl_up_sync(0xffffffffu, w, off);
        if (lane >= off) w = fminf(w, o);
      }
      if (lane < warps) s_warp[lane] = w;
    }
    __syncthreads();
    const float tile_min = s_warp[warps - 1];
    if (warp > 0) excl = fminf(excl, s_warp[warp - 1]);

    if (tid == 0) {
      float carry = INFINITY;
      if (t == 0) {
        atomicExch(&g_pm_state[0], pm_pack(2, tile_min));
      } else {
        atomicExch(&g_pm_state[t], pm_pack(1, tile_min));
        size_t j = t - 1;
        for (;;) {
          unsigned long long w;
          do {
            w = atomicAdd(&g_pm_state[j], 0ull);
          } while ((w >> 32) == 0ull);
          carry = fminf(carry, __uint_as_float((unsigned)w));
          if ((w >> 32) == 2ull) break;
          --j;
        }
        atomicExch(&g_pm_state[t], pm_pack(2, fminf(carry, tile_min)));
      }
      s_carry = carry;
    }
    __syncthreads();
    float acc = fminf(s_carry, excl);
    for (size_t k = 0; k < per; ++k) {
      size_t i = first + k;
      if (i < N) {
        acc = fminf(acc, x[i]);
        x[i] = acc;
      }
    }
    __syncthreads();  // shared values are reused by the next tile
  }

  __syncthreads();
  if (tid == 0) {
    __threadfence();
    s_last = atomicAdd(&g_pm_done, 1u) == gridDim.x * gridDim.y * gridDim.z - 1;
  }
  __syncthreads();
  if (s_last) {
    for (size_t i = tid; i < tiles; i += blockDim.x) atomicExch(&g_pm_state[i], 0ull);
    if (tid == 0) {
      atomicExch(&g_pm_ticket, 0u);
      atomicExch(&g_pm_done, 0u);
    }
  }
}
