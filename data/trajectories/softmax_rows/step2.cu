#include <cuda_runtime.h>
#include <cmath>

constexpr int kBlock = 256;

// One block per row. Threads stride over the columns (consecutive threads,
// consecutive addresses), and the row max and row sum are shared-memory tree
// reductions whose result thread 0 leaves in s[0] for everyone.
__global__ void softmax_row_per_block(int cols, const float* __restrict__ x, float* __restrict__ y) {
  __shared__ float s[kBlock];
  int tid = threadIdx.x;
  const float* in = x + static_cast<size_t>(blockIdx.x) * cols;
  float* out = y + static_cast<size_t>(blockIdx.x) * cols;

  float m = -INFINITY;
  for (int c = tid; c < cols; c += kBlock) m = fmaxf(m, in[c]);
  s[tid] = m;
  __syncthreads();
  for (int h = kBlock / 2; h > 0; h >>= 1) {
    if (tid < h) s[tid] = fmaxf(s[tid], s[tid + h]);
    __syncthreads();
  }
  m = s[0];
  __syncthreads();

  float sum = 0.0f;
  for (int c = tid; c < cols; c += kBlock) {
    float e = expf(in[c] - m);
    out[c] = e;
    sum += e;
  }
  s[tid] = sum;
  __syncthreads();
  for (int h = kBlock / 2; h > 0; h >>= 1) {
    if (tid < h) s[tid] += s[tid + h];
    __syncthreads();
  }
  sum = s[0];

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
