#include <cuda_runtime.h>
#include <cmath>

constexpr int kBlock = 256;

__device__ __forceinline__ float warp_max(float v) {
  for (int off = 16; off > 0; off >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, off));
  return v;
}

__device__ __forceinline__ float warp_sum(float v) {
  for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
  return v;
}

// Block reductions whose result every thread receives: butterfly shuffles in
// each warp, then every thread folds the 8 warp results from shared memory.
// The trailing barrier makes the buffer safe to reuse.
__device__ __forceinline__ float block_max(float v) {
  __shared__ float buf[kBlock / 32];
  v = warp_max(v);
  if ((threadIdx.x & 31) == 0) buf[threadIdx.x >> 5] = v;
  __syncthreads();
  float r = buf[0];
#pragma unroll
  for (int w = 1; w < kBlock / 32; ++w) r = fmaxf(r, buf[w]);
  __syncthreads();
  return r;
}

__device__ __forceinline__ float block_sum(float v) {
  __shared__ float buf[kBlock / 32];
  v = warp_sum(v);
  if ((threadIdx.x & 31) == 0) buf[threadIdx.x >> 5] = v;
  __syncthreads();
  float r = buf[0];
#pragma unroll
  for (int w = 1; w < kBlock / 32; ++w) r += buf[w];
  __syncthreads();
  return r;
}

// One block per row with shuffle-based reductions: two barriers per
// reduction instead of nine.
__global__ void softmax_row_per_block(int cols, const float* __restrict__ x, float* __restrict__ y) {
  int tid = threadIdx.x;
  const float* in = x + static_cast<size_t>(blockIdx.x) * cols;
  float* out = y + static_cast<size_t>(blockIdx.x) * cols;
  float m = -INFINITY;
  for (int c = tid; c < cols; c += kBlock) m = fmaxf(m, in[c]);
  m = block_max(m);
  float sum = 0.0f;
  for (int c = tid; c < cols; c += kBlock) {
    float e = expf(in[c] - m);
    out[c] = e;
    sum += e;
  }
  sum = block_sum(sum);
  for (int c = tid; c < cols; c += kBlock) out[c] /= sum;
}

void rowSoftmax(int rows, int cols, const float* x, float* y) {
  if (rows <= 0 || cols <= 0) return;
  size_t bytes = static_cast<size_t>(rows) * cols * sizeof(float);
  float *dx = nullptr, *dy = nullptr;
  cudaMalloc(&dx, bytes);
  cudaMalloc(&dy, bytes);
  cudaMemcpy(dx, x, bytes, cudaMemcpyHostToDevice);
  softmax_row_per_block<<<rows, kBlock>>>(cols, dx, dy);
  cudaMemcpy(y, dy, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
}
