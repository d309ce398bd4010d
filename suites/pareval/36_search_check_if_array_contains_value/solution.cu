#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

// Grid-stride scan: each thread compares its share of x with target (int4
// vector loads for the aligned bulk), a warp vote combines the lanes, and
// one lane per warp that saw a match writes 1 to the flag (every writer
// stores the same value, so no atomic is needed).

__global__ void contains_kernel(const int* __restrict__ x, size_t n, int target, int* __restrict__ flag) {
  const size_t tid = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  bool hit = false;
  const size_t n4 = n / 4;
  const int4* x4 = reinterpret_cast<const int4*>(x);
  for (size_t i = tid; i < n4; i += stride) {
    int4 v = x4[i];
    hit |= (v.x == target) | (v.y == target) | (v.z == target) | (v.w == target);
  }
  for (size_t i = 4 * n4 + tid; i < n; i += stride) hit |= (x[i] == target);
  if (__any_sync(0xffffffffu, hit) && (threadIdx.x & 31) == 0) *flag = 1;
}

bool contains(std::vector<int> const& x, int target) {
  const size_t n = x.size();
  if (n == 0) return false;
  int* d_x = nullptr;
  int* d_flag = nullptr;
  cudaMalloc(&d_x, n * sizeof(int));
  cudaMalloc(&d_flag, sizeof(int));
  cudaMemsetAsync(d_flag, 0, sizeof(int));
  cudaMemcpy(d_x, x.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  const int threads = 256;
  size_t want = (n / 4 + threads - 1) / threads;
  int blocks = (int)(want < 1 ? 1 : (want > 2048 ? 2048 : want));
  contains_kernel<<<blocks, threads>>>(d_x, n, target, d_flag);
  int flag = 0;
  cudaMemcpy(&flag, d_flag, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d_x);
  cudaFree(d_flag);
  return flag != 0;
}
