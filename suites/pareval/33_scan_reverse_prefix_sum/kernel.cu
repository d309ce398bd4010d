#include <cuda_runtime.h>
#include <cstddef>

// Kernel form: one launch with at least N threads (1-D blocks, blockDim a
// multiple of 32). output[i] is the inclusive prefix sum of x read back to
// front, so this is a forward scan whose loads read x[N-1-i]. Single pass with
// decoupled look-back: blocks take tiles in order from an atomic ticket, scan
// their tile with warp shuffles, publish the tile total, and thread 0 walks
// back over earlier tiles until it meets a published inclusive prefix. A
// tile's state is one 64-bit word (status in the high half, the int in the
// low half) in static device memory; the last block to finish clears it for
// the next launch.

#define RPS_MAX_TILES (1 << 16)

__device__ unsigned long long g_rps_state[RPS_MAX_TILES];
__device__ unsigned int g_rps_ticket = 0;
__device__ unsigned int g_rps_done = 0;

__device__ __forceinline__ unsigned long long rps_pack(unsigned long long status, int v) {
  return (status << 32) | (unsigned long long)(unsigned)v;
}

__global__ void reversePrefixSum(const int *x, int *output, size_t N) {
  __shared__ int s_warp[32];
  __shared__ int s_carry;
  __shared__ unsigned int s_ticket;
  __shared__ int s_last;

  const unsigned tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const unsigned warps = blockDim.x >> 5;
  const size_t cap = (size_t)blockDim.x * RPS_MAX_TILES;
  const size_t per = N > cap ? (N + cap - 1) / cap : 1;  // values per thread
  const size_t tile = per * blockDim.x;
  const size_t tiles = (N + tile - 1) / tile;

  for (;;) {
    if (tid == 0) s_ticket = atomicAdd(&g_rps_ticket, 1u);
    __syncthreads();
    const size_t t = s_ticket;
    if (t >= tiles) break;
    const size_t first = t * tile + tid * per;

    int run = 0;
    for (size_t k = 0; k < per; ++k) {
      size_t i = first + k;
      if (i < N) run += x[N - 1 - i];
    }
    int incl = run;
    for (unsigned off = 1; off < 32; off <<= 1) {
      int o = __shfl_up_sync(0xffffffffu, incl, off);
      if (lane >= off) incl += o;
    }
    if (lane == 31) s_warp[warp] = incl;
    __syncthreads();
    if (warp == 0) {
      int w = lane < warps ? s_warp[lane] : 0;
      for (unsigned off = 1; off < 32; off <<= 1) {
        int o = __shfl_up_sync(0xffffffffu, w, off);
        if (lane >= off) w += o;
      }
      if (lane < warps) s_warp[lane] = w;
    }
    __syncthreads();
    const int tile_total = s_warp[warps - 1];
    const int thread_excl = (warp > 0 ? s_warp[warp - 1] : 0) + (incl - run);

    if (tid == 0) {
      int carry = 0;
      if (t == 0) {
        atomicExch(&g_rps_state[0], rps_pack(2, tile_total));
      } else {
        atomicExch(&g_rps_state[t], rps_pack(1, tile_total));
        size_t j = t - 1;
        for (;;) {
          unsigned long long w;
          do {
            w = atomicAdd(&g_rps_state[j], 0ull);
          } while ((w >> 32) == 0ull);
          carry += (int)(unsigned)w;
          if ((w >> 32) == 2ull) break;
          --j;
        }
        atomicExch(&g_rps_state[t], rps_pack(2, carry + tile_total));
      }
      s_carry = carry;
    }
    __syncthreads();
    int acc = s_carry + thread_excl;
    for (size_t k = 0; k < per; ++k) {
      size_t i = first + k;
      if (i < N) {
        acc += x[N - 1 - i];
        output[i] = acc;
      }
    }
    __syncthreads();  // shared values are reused by the next tile
  }

  __syncthreads();
  if (tid == 0) {
    __threadfence();
    s_last = atomicAdd(&g_rps_done, 1u) == gridDim.x * gridDim.y * gridDim.z - 1;
  }
  __syncthreads();
  if (s_last) {
    for (size_t i = tid; i < tiles; i += blockDim.x) atomicExch(&g_rps_state[i], 0ull);
    if (tid == 0) {
      atomicExch(&g_rps_ticket, 0u);
      atomicExch(&g_rps_done, 0u);
    }
  }
}
