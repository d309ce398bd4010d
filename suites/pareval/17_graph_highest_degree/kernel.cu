#include <cstddef>

// One warp per row (rows strided over all warps of the launch: >= N threads give N/32 warps,
// about 32 rows each), so loads are coalesced; the warp's sum is the row's degree. Each block
// keeps its largest degree and combines with one atomicMax.
__global__ void maxDegree(const int *A, size_t N, int *maxDegree) {
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const size_t gwarp = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const size_t nwarps = ((size_t)gridDim.x * blockDim.x) >> 5;
  int best = 0;
  for (size_t i = gwarp; i < N; i += nwarps) {
    const int* row = A + i * N;
    int d = 0;
    for (size_t j = lane; j < N; j += 32) d += (__ldg(&row[j]) != 0);
    for (int off = 16; off > 0; off >>= 1) d += __shfl_xor_sync(0xffffffffu, d, off);
    best = max(best, d);
  }
  __shared__ int warpBest[32];
  if (lane == 0) warpBest[warp] = best;
  __syncthreads();
  if (warp == 0) {
    best = lane < ((blockDim.x + 31) >> 5) ? warpBest[lane] : 0;
    for (int off = 16; off > 0; off >>= 1) best = max(best, __shfl_down_sync(0xffffffffu, best, off));
    if (lane == 0 && best > 0) atomicMax(maxDegree, best);
  }
}
