#include <cuda_runtime.h>
#include <vector>

// One warp per row (coalesced reads), warp-shuffle sum = the degree; the block keeps the
// largest degree of its rows and combines with one atomicMax.
constexpr int kBlock = 256;
constexpr int kWarps = kBlock / 32;

__global__ void rowDegreeMax(const int* __restrict__ A, size_t N, int* __restrict__ out) {
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const size_t nwarps = (size_t)gridDim.x * kWarps;
  int best = 0;
  for (size_t i = (size_t)blockIdx.x * kWarps + warp; i < N; i += nwarps) {
    const int* row = A + i * N;
    int d = 0;
    for (size_t j = lane; j < N; j += 32) d += (__ldg(&row[j]) != 0);
    for (int off = 16; off > 0; off >>= 1) d += __shfl_xor_sync(0xffffffffu, d, off);
    best = max(best, d);
  }
  __shared__ int warpBest[kWarps];
  if (lane == 0) warpBest[warp] = best;
  __syncthreads();
  if (warp == 0) {
    best = lane < kWarps ? warpBest[lane] : 0;
    for (int off = 16; off > 0; off >>= 1) best = max(best, __shfl_down_sync(0xffffffffu, best, off));
    if (lane == 0 && best > 0) atomicMax(out, best);
  }
}

int maxDegree(std::vector<int> const& A, size_t N) {
  int *dA = nullptr, *dBest = nullptr;
  cudaMalloc(&dA, N * N * sizeof(int));
  cudaMalloc(&dBest, sizeof(int));
  cudaMemcpy(dA, A.data(), N * N * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(dBest, 0, sizeof(int));
  size_t want = (N + kWarps - 1) / kWarps;
  int blocks = (int)(want < 1 ? 1 : (want > 2048 ? 2048 : want));
  rowDegreeMax<<<blocks, kBlock>>>(dA, N, dBest);
  int result = 0;
  cudaMemcpy(&result, dBest, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dA);
  cudaFree(dBest);
  return result;
}
