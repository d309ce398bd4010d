#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

// One grid-stride pass over both vectors (int4 loads for the aligned bulk).
// Warp votes combine the lanes; a warp that saw val in x sets flags[0], one
// that saw it in y sets flags[1] (every writer stores 1). A one-thread kernel
// turns the two flags into the answer on the device.

__device__ __forceinline__ bool has_val(const int* __restrict__ a, size_t n, int val, size_t tid, size_t stride) {
  bool hit = false;
  const size_t n4 = n / 4;
  const int4* a4 = reinterpret_cast<const int4*>(a);
  for (size_t i = tid; i < n4; i += stride) {
    int4 v = a4[i];
    hit |= (v.x == val) | (v.y == val) | (v.z == val) | (v.w == val);
  }
  for (size_t i = 4 * n4 + tid; i < n; i += stride) hit |= (a[i] == val);
  return hit;
}

__global__ void xor_contains_scan(const int* __restrict__ x, size_t nx, const int* __restrict__ y, size_t ny, int val,
                                  int* __restrict__ flags) {
  const size_t tid = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  bool inx = has_val(x, nx, val, tid, stride);
  bool iny = has_val(y, ny, val, tid, stride);
  bool wx = __any_sync(0xffffffffu, inx), wy = __any_sync(0xffffffffu, iny);
  if ((threadIdx.x & 31) == 0) {
    if (wx) flags[0] = 1;
    if (wy) flags[1] = 1;
  }
}

__global__ void xor_contains_finish(const int* __restrict__ flags, bool* __restrict__ result) {
  *result = (flags[0] != 0) != (flags[1] != 0);
}

bool xorContains(std::vector<int> const& x, std::vector<int> const& y, int val) {
  const size_t nx = x.size(), ny = y.size();
  int *d_x = nullptr, *d_y = nullptr, *d_flags = nullptr;
  cudaMalloc(&d_x, (nx ? nx : 1) * sizeof(int));
  cudaMalloc(&d_y, (ny ? ny : 1) * sizeof(int));
  cudaMalloc(&d_flags, 4 * sizeof(int));
  cudaMemsetAsync(d_flags, 0, 4 * sizeof(int));
  if (nx) cudaMemcpy(d_x, x.data(), nx * sizeof(int), cudaMemcpyHostToDevice);
  if (ny) cudaMemcpy(d_y, y.data(), ny * sizeof(int), cudaMemcpyHostToDevice);
  const int threads = 256;
  size_t big = nx > ny ? nx : ny;
  size_t want = (big / 4 + threads - 1) / threads;
  int blocks = (int)(want < 1 ? 1 : (want > 2048 ? 2048 : want));
  xor_contains_scan<<<blocks, threads>>>(d_x, nx, d_y, ny, val, d_flags);
  bool* d_result = reinterpret_cast<bool*>(d_flags + 2);
  xor_contains_finish<<<1, 1>>>(d_flags, d_result);
  bool result = false;
  cudaMemcpy(&result, d_result, sizeof(bool), cudaMemcpyDeviceToHost);
  cudaFree(d_x);
  cudaFree(d_y);
  cudaFree(d_flags);
  return result;
}
