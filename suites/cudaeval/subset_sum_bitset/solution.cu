#include <cuda_runtime.h>
#include <cstddef>
#include <cstdint>

constexpr int kThreads = 1024;
constexpr int kMaxSharedWords = 24 * 1024;  // two buffers: 192 KB

// Word k of (old << w): bits s of the result take bit s - w of old.
__device__ __forceinline__ uint32_t shifted_word(const uint32_t* old, int k, int w) {
  int ws = w >> 5, bs = w & 31;
  int src = k - ws;
  if (src < 0) return 0u;
  uint32_t v = old[src] << bs;
  if (bs != 0 && src >= 1) v |= old[src - 1] >> (32 - bs);
  return v;
}

// Step 1 (thread_mapping): each thread owns words of the reachability bitset.
// Step 2 (data_layout_transformation): totals are bits (bit s & 31 of word
// s >> 5), so an item is new = old | (old << w), 32 totals per operation.
// Step 3 (shared_memory_tiling): the whole bitset (two buffers) stays in
// shared memory for the run.
// Step 4 (kernel_fusion): all items are processed by one launch, with a
// __syncthreads between items instead of a kernel boundary.
__global__ void subset_shared_kernel(int nitems, const int* __restrict__ weights, int cap, int nwords,
                                     uint32_t* __restrict__ out) {
  extern __shared__ uint32_t bits[];
  uint32_t* buf[2] = {bits, bits + nwords};
  uint32_t last_mask = ((cap + 1) & 31) ? ((1u << ((cap + 1) & 31)) - 1u) : 0xffffffffu;
  for (int k = threadIdx.x; k < nwords; k += blockDim.x) buf[0][k] = (k == 0) ? 1u : 0u;
  __syncthreads();
  int cur = 0;
  for (int i = 0; i < nitems; ++i) {
    int w = weights[i];
    if (w > cap || w <= 0) continue;  // uniform across the block
    for (int k = threadIdx.x; k < nwords; k += blockDim.x) {
      uint32_t v = buf[cur][k] | shifted_word(buf[cur], k, w);
      if (k == nwords - 1) v &= last_mask;
      buf[cur ^ 1][k] = v;
    }
    __syncthreads();
    cur ^= 1;
  }
  for (int k = threadIdx.x; k < nwords; k += blockDim.x) out[k] = buf[cur][k];
}

// Fallback for capacities beyond shared memory: one launch per item.
__global__ void subset_global_step_kernel(int w, int nwords, uint32_t last_mask, const uint32_t* __restrict__ in,
                                          uint32_t* __restrict__ out) {
  int stride = gridDim.x * blockDim.x;
  for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < nwords; k += stride) {
    uint32_t v = in[k] | shifted_word(in, k, w);
    if (k == nwords - 1) v &= last_mask;
    out[k] = v;
  }
}

__global__ void subset_init_kernel(int nwords, uint32_t* __restrict__ bits) {
  int stride = gridDim.x * blockDim.x;
  for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < nwords; k += stride) bits[k] = (k == 0) ? 1u : 0u;
}

__global__ void unpack_kernel(int cap, const uint32_t* __restrict__ bits, uint8_t* __restrict__ reachable) {
  int stride = gridDim.x * blockDim.x;
  for (int s = blockIdx.x * blockDim.x + threadIdx.x; s <= cap; s += stride) {
    reachable[s] = (bits[s >> 5] >> (s & 31)) & 1u;
  }
}

void subsetSumReachable(int nitems, const int* weights, int cap, uint8_t* reachable) {
  if (cap < 0) return;
  int nwords = (cap + 1 + 31) / 32;
  uint32_t last_mask = ((cap + 1) & 31) ? ((1u << ((cap + 1) & 31)) - 1u) : 0xffffffffu;
  int* dw = nullptr;
  uint32_t *dbits[2] = {nullptr, nullptr};
  uint8_t* dr = nullptr;
  cudaMalloc(&dw, (size_t)(nitems > 0 ? nitems : 1) * sizeof(int));
  cudaMalloc(&dbits[0], (size_t)nwords * sizeof(uint32_t));
  cudaMalloc(&dr, (size_t)cap + 1);
  if (nitems > 0) cudaMemcpy(dw, weights, (size_t)nitems * sizeof(int), cudaMemcpyHostToDevice);
  int device = 0, sms = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  if (sms <= 0) sms = 80;
  int cur = 0;
  if (nwords <= kMaxSharedWords) {
    size_t smem = 2 * (size_t)nwords * sizeof(uint32_t);
    cudaFuncSetAttribute(subset_shared_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    subset_shared_kernel<<<1, kThreads, smem>>>(nitems, dw, cap, nwords, dbits[0]);
  } else {
    cudaMalloc(&dbits[1], (size_t)nwords * sizeof(uint32_t));
    int grid = (nwords + 255) / 256;
    if (grid > sms * 8) grid = sms * 8;
    subset_init_kernel<<<grid, 256>>>(nwords, dbits[0]);
    for (int i = 0; i < nitems; ++i) {
      int w = weights[i];
      if (w > cap || w <= 0) continue;
      subset_global_step_kernel<<<grid, 256>>>(w, nwords, last_mask, dbits[cur], dbits[cur ^ 1]);
      cur ^= 1;
    }
  }
  int g = (cap + 1 + 255) / 256;
  if (g > sms * 8) g = sms * 8;
  unpack_kernel<<<g, 256>>>(cap, dbits[cur], dr);
  cudaMemcpy(reachable, dr, (size_t)cap + 1, cudaMemcpyDeviceToHost);
  cudaFree(dw);
  cudaFree(dbits[0]);
  cudaFree(dbits[1]);
  cudaFree(dr);
}
