// Kernel form: one thread per element, a single launch. Each warp takes the parity of its
// true elements with a ballot; each block folds its warps' parities and flips a device-wide
// parity word. CUDA has no one-byte atomics, so the last block to finish (the classic
// threadfence-reduction pattern) combines that word into *output (false on entry) and resets
// the counters for the next launch.
__device__ unsigned int g_xor_parity = 0;
__device__ unsigned int g_xor_blocks_done = 0;

__global__ void reduceLogicalXOR(const bool *x, size_t N, bool *output) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  bool v = i < N ? x[i] : false;
  unsigned int votes = __ballot_sync(0xffffffffu, v);
  __shared__ unsigned int warp_parity[32];
  __shared__ bool is_last;
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) warp_parity[warp] = __popc(votes) & 1u;
  __syncthreads();
  if (warp == 0) {
    unsigned int p = lane < (int)((blockDim.x + 31) >> 5) ? warp_parity[lane] : 0u;
    unsigned int odd = __ballot_sync(0xffffffffu, p != 0);
    if (lane == 0) {
      if (__popc(odd) & 1) atomicXor(&g_xor_parity, 1u);
      __threadfence();
      unsigned int ticket = atomicAdd(&g_xor_blocks_done, 1u);
      is_last = ticket == gridDim.x - 1;
    }
  }
  __syncthreads();
  if (is_last && threadIdx.x == 0) {
    __threadfence();
    unsigned int parity = atomicExch(&g_xor_parity, 0u);
    *output = (*output) != (parity != 0u);
    atomicExch(&g_xor_blocks_done, 0u);
  }
}
