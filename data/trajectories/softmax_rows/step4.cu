#include <cuda_runtime.h>
#include <cmath>

constexpr int kBlock = 256;
constexpr int kPerThread = 8;  // rows of up to 2048 columns stay in registers

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

// Rows that fit: each thread loads its (at most 8) columns once into
// registers; max, exponentials, sum and the final scaling all work on those
// registers, so the row is read from global memory once and written once.
__global__ void softmax_row_cached(int cols, const float* __restrict__ x, float* __restrict__ y) {
  int tid = threadIdx.x;
  const float* in = x + static_cast<size_t>(blockIdx.x) * cols;
  float* out = y + static_cast<size_t>(blockIdx.x) * cols;
  float v[kPerThread];
  float m = -INFINITY;
#pragma unroll
  for (int k = 0; k < kPerThread; ++k) {
    int c = tid + k * kBlock;
    v[k] = (c < cols) ? in[c] : -INFINITY;
    m = fmaxf(m, v[k]);
  }
  m = block_max(m);
  float sum = 0.0f;
#pragma unroll
  for (int k = 0; k < kPerThread; ++k) {
    int c = tid + k * kBlock;
    v[k] = (c < cols) ? expf(v[k] - m) : 0.0f;
    sum += v[k];
  }
  sum = block_sum(sum);
#pragma unroll
  for (int k = 0; k < kPerThread; ++k) {
    int c = tid + k * kBlock;
    if (c < cols) out[c] = v[k] / sum;
  }
}

// Longer rows: the strided three-pass version.
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
  for (int c = tid; c < cols; c += kBlock) out[c] = out[c] / sum;
}

void rowSoftmax(int rows, int cols, const float* x, float* y) {
  if (rows <= 0 || cols <= 0) return;
  size_t bytes = static_cast<size_t>(rows) * cols * sizeof(float);
  float *dx = nullptr, *dy = nullptr;
  cudaMalloc(&dx, bytes);
  cudaMalloc(&dy, bytes);
  cudaMemcpy(dx, x, bytes, cudaMemcpyHostToDevice);
  if (cols <= kBlock * kPerThread) {
    softmax_row_cached<<<rows, kBlock>>>(cols, dx, dy);
  } else {
    softmax_row_per_block<<<rows, kBlock>>>(cols, dx, dy);
  }
  cudaMemcpy(y, dy, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
}
