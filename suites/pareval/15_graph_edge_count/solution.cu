#include <cuda_runtime.h>
#include <vector>

// A pure bandwidth-bound count: grid-stride over the matrix with 16-byte loads, a warp-shuffle
// and shared-memory block reduction, one atomicAdd per block.
constexpr int kBlock = 256;

__global__ void countNonzero(const int* __restrict__ A, size_t total, int* __restrict__ out) {
  const size_t tid = (size_t)blockIdx.x * kBlock + threadIdx.x;
  const size_t stride = (size_t)gridDim.x * kBlock;
  const size_t quads = total / 4;
  const int4* A4 = reinterpret_cast<const int4*>(A);
  int c = 0;
  for (size_t q = tid; q < quads; q += stride) {
    int4 v = __ldg(&A4[q]);
    c += (v.x != 0) + (v.y != 0) + (v.z != 0) + (v.w != 0);
  }
  for (size_t k = quads * 4 + tid; k < total; k += stride) c += (A[k] != 0);
  for (int off = 16; off > 0; off >>= 1) c += __shfl_down_sync(0xffffffffu, c, off);
  __shared__ int warpSum[kBlock / 32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) warpSum[warp] = c;
  __syncthreads();
  if (warp == 0) {
    c = lane < kBlock / 32 ? warpSum[lane] : 0;
    for (int off = 16; off > 0; off >>= 1) c += __shfl_down_sync(0xffffffffu, c, off);
    if (lane == 0 && c != 0) atomicAdd(out, c);
  }
}

int edgeCount(std::vector<int> const& A, size_t N) {
  const size_t total = N * N;
  int *dA = nullptr, *dCount = nullptr;
  cudaMalloc(&dA, total * sizeof(int));
  cudaMalloc(&dCount, sizeof(int));
  cudaMemcpy(dA, A.data(), total * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(dCount, 0, sizeof(int));
  size_t want = (total / 4 + kBlock - 1) / kBlock;
  int blocks = (int)(want < 1 ? 1 : (want > 1056 ? 1056 : want));
  countNonzero<<<blocks, kBlock>>>(dA, total, dCount);
  int result = 0;
  cudaMemcpy(&result, dCount, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dA);
  cudaFree(dCount);
  return result;
}
