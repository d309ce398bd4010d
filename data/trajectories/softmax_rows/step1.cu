#include <cuda_runtime.h>
#include <cmath>

// One thread per row, the three serial passes unchanged.
__global__ void softmax_row_per_thread(int rows, int cols, const float* x, float* y) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const float* in = x + static_cast<size_t>(r) * cols;
  float* out = y + static_cast<size_t>(r) * cols;
  float m = in[0];
  for (int c = 1; c < cols; ++c) m = fmaxf(m, in[c]);
  float s = 0.0f;
  for (int c = 0; c < cols; ++c) {
    float e = expf(in[c] - m);
    out[c] = e;
    s += e;
  }
  for (int c = 0; c < cols; ++c) out[c] /= s;
}

void rowSoftmax(int rows, int cols, const float* x, float* y) {
  if (rows <= 0 || cols <= 0) return;
  size_t bytes = static_cast<size_t>(rows) * cols * sizeof(float);
  float *dx = nullptr, *dy = nullptr;
  cudaMalloc(&dx, bytes);
  cudaMalloc(&dy, bytes);
  cudaMemcpy(dx, x, bytes, cudaMemcpyHostToDevice);
  int block = 128;
  int grid = (rows + block - 1) / block;
  softmax_row_per_thread<<<grid, block>>>(rows, cols, dx, dy);
  cudaMemcpy(y, dy, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
}
