#include <cstddef>

// One warp per row (rows strided over all warps of the launch), so every load is coalesced;
// the launch's >= N threads give N/32 warps, each handling about 32 rows. Warp sums are
// reduced in shared memory and each block adds its total with one atomicAdd.
__global__ void edgeCount(const int *A, size_t N, int *numEdges) {
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const size_t gwarp = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const size_t nwarps = ((size_t)gridDim.x * blockDim.x) >> 5;
  int c = 0;
  for (size_t i = gwarp; i < N; i += nwarps) {
    const int* row = A + i * N;
    for (size_t j = lane; j < N; j += 32) c += (__ldg(&row[j]) != 0);
  }
  for (int off = 16; off > 0; off >>= 1) c += __shfl_down_sync(0xffffffffu, c, off);
  __shared__ int warpSum[32];
  if (lane == 0) warpSum[warp] = c;
  __syncthreads();
  if (warp == 0) {
    c = lane < ((blockDim.x + 31) >> 5) ? warpSum[lane] : 0;
    for (int off = 16; off > 0; off >>= 1) c += __shfl_down_sync(0xffffffffu, c, off);
    if (lane == 0 && c != 0) atomicAdd(numEdges, c);
  }
}
