#include <cuda_runtime.h>
#include <cstddef>

// One thread per output row over the whole batch: global row g belongs to
// matrix b = g / d, and its matrix row starts at M + g * d.
__global__ void bmv_row(int batch, int d, const float* M, const float* x, float* y) {
  size_t rows = (size_t)batch * d;
  size_t g = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= rows) return;
  size_t b = g / d;
  const float* mrow = M + g * d;
  const float* xb = x + b * d;
  float s = 0.0f;
  for (int c = 0; c < d; ++c) s += mrow[c] * xb[c];
  y[g] = s;
}

void batched_small_matvec(int batch, int d, const float* M, const float* x, float* y) {
  if (batch <= 0 || d <= 0) return;
  size_t rows = (size_t)batch * d;
  size_t m_bytes = rows * d * sizeof(float);
  float *d_M = nullptr, *d_x = nullptr, *d_y = nullptr;
  cudaMalloc(&d_M, m_bytes);
  cudaMalloc(&d_x, rows * sizeof(float));
  cudaMalloc(&d_y, rows * sizeof(float));
  cudaMemcpy(d_M, M, m_bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_x, x, rows * sizeof(float), cudaMemcpyHostToDevice);
  int block = 256;
  bmv_row<<<(unsigned)((rows + block - 1) / block), block>>>(batch, d, d_M, d_x, d_y);
  cudaMemcpy(y, d_y, rows * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_M);
  cudaFree(d_x);
  cudaFree(d_y);
}
