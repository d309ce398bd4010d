#include <cuda_runtime.h>
#include <cstdint>

// uint4 in, int4 out: four words per thread; the first n % 4 threads do the tail.
__global__ void popcount_kernel_vec4(int n, const uint32_t* __restrict__ words, int* __restrict__ counts) {
  int n4 = n >> 2;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    uint4 w = reinterpret_cast<const uint4*>(words)[i];
    reinterpret_cast<int4*>(counts)[i] = make_int4(__popc(w.x), __popc(w.y), __popc(w.z), __popc(w.w));
  }
  if (i < (n & 3)) {
    int t = (n4 << 2) + i;
    counts[t] = __popc(words[t]);
  }
}

void countSetBits(int n, const uint32_t* words, int* counts) {
  if (n <= 0) return;
  uint32_t* dw = nullptr;
  int* dc = nullptr;
  cudaMalloc(&dw, static_cast<size_t>(n) * sizeof(uint32_t));
  cudaMalloc(&dc, static_cast<size_t>(n) * sizeof(int));
  cudaMemcpy(dw, words, static_cast<size_t>(n) * sizeof(uint32_t), cudaMemcpyHostToDevice);
  int block = 256;
  int work = (n >> 2) > 3 ? (n >> 2) : 3;
  int grid = (work + block - 1) / block;
  popcount_kernel_vec4<<<grid, block>>>(n, dw, dc);
  cudaMemcpy(counts, dc, static_cast<size_t>(n) * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dw);
  cudaFree(dc);
}
