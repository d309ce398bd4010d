#include <cuda_runtime.h>
#include <climits>
#include <cmath>
#include <cstring>

constexpr int kBlock = 256;

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

__device__ __forceinline__ void warp_minmax(float& mn, float& mx) {
  for (int off = 16; off > 0; off >>= 1) {
    mn = fminf(mn, __shfl_xor_sync(0xffffffffu, mn, off));
    mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, off));
  }
}

// Warp results are aggregated per block in shared memory, so each block
// issues exactly one atomicMin/atomicMax pair instead of one per warp.
__global__ void minmax_block_kernel(int n, const float* __restrict__ x, int* keys) {
  __shared__ float s_mn[kBlock / 32], s_mx[kBlock / 32];
  float mn = INFINITY, mx = -INFINITY;
  int stride = gridDim.x * kBlock;
  for (int i = blockIdx.x * kBlock + threadIdx.x; i < n; i += stride) {
    float v = x[i];
    mn = fminf(mn, v);
    mx = fmaxf(mx, v);
  }
  warp_minmax(mn, mx);
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) {
    s_mn[warp] = mn;
    s_mx[warp] = mx;
  }
  __syncthreads();
  if (warp == 0) {
    mn = (lane < kBlock / 32) ? s_mn[lane] : INFINITY;
    mx = (lane < kBlock / 32) ? s_mx[lane] : -INFINITY;
    warp_minmax(mn, mx);
    if (lane == 0 && mn <= mx) {
      atomicMin(&keys[0], encode_key(mn));
      atomicMax(&keys[1], encode_key(mx));
    }
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
  int grid = (n + kBlock - 1) / kBlock;
  if (grid > 1024) grid = 1024;
  minmax_block_kernel<<<grid, kBlock>>>(n, dx, dkeys);
  int keys[2];
  cudaMemcpy(keys, dkeys, sizeof(keys), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dkeys);
  lo = decode_key(keys[0]);
  hi = decode_key(keys[1]);
}
