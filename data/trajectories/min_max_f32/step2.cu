#include <cuda_runtime.h>
#include <climits>
#include <cmath>
#include <cstring>

__device__ __forceinline__ int encode_key(float f) {
  int i = __float_as_int(f);
  return i >= 0 ? i : (i ^ 0x7fffffff);
}

static float decode_key(int k) {
  unsigned int u = static_cast<unsigned int>(k >= 0 ? k : (k ^ 0x7fffffff));
  float f;
  std::memcpy(&f, &u, sizeof(f));
  return f;
}

// Warp-level min/max with butterfly shuffles first; only lane 0 of each warp
// issues the two atomics. Lanes past n contribute +inf / -inf.
__global__ void minmax_warp_kernel(int n, const float* __restrict__ x, int* keys) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = (i < n) ? x[i] : 0.0f;
  float mn = (i < n) ? v : INFINITY;
  float mx = (i < n) ? v : -INFINITY;
  for (int off = 16; off > 0; off >>= 1) {
    mn = fminf(mn, __shfl_xor_sync(0xffffffffu, mn, off));
    mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, off));
  }
  if ((threadIdx.x & 31) == 0 && mn <= mx) {  // skip warps lying entirely past n
    atomicMin(&keys[0], encode_key(mn));
    atomicMax(&keys[1], encode_key(mx));
  }
}

void findMinMax(int n, const float* x, float& lo, float& hi) {
  if (n <= 0) return;
  size_t bytes = static_cast<size_t>(n) * sizeof(float);
  float* dx = nullptr;
  int* dkeys = nullptr;
  cudaMalloc(&dx, bytes);
  cudaMalloc(&dkeys, 2 * sizeof(int));
  cudaMemcpy(dx, x, bytes, cudaMemcpyHostToDevice);
  int init[2] = {INT_MAX, INT_MIN};
  cudaMemcpy(dkeys, init, sizeof(init), cudaMemcpyHostToDevice);
  int block = 256;
  int grid = (n + block - 1) / block;
  minmax_warp_kernel<<<grid, block>>>(n, dx, dkeys);
  int keys[2];
  cudaMemcpy(keys, dkeys, sizeof(keys), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dkeys);
  lo = decode_key(keys[0]);
  hi = decode_key(keys[1]);
}
