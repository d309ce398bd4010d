#include <cuda_runtime.h>
#include <cstddef>

// One thread per matrix element; the row comes from dividing the flat index.
__global__ void scale_rows_flat(size_t total, int cols, const float* scale, float* A) {
  size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= total) return;
  size_t row = idx / (size_t)cols;
  A[idx] *= scale[row];
}

void scale_matrix_rows(int rows, int cols, const float* scale, float* A) {
  if (rows <= 0 || cols <= 0) return;
  size_t total = (size_t)rows * (size_t)cols;
  float *d_scale = nullptr, *d_A = nullptr;
  cudaMalloc(&d_scale, (size_t)rows * sizeof(float));
  cudaMalloc(&d_A, total * sizeof(float));
  cudaMemcpy(d_scale, scale, (size_t)rows * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_A, A, total * sizeof(float), cudaMemcpyHostToDevice);
  int block = 256;
  unsigned grid = (unsigned)((total + block - 1) / block);
  scale_rows_flat<<<grid, block>>>(total, cols, d_scale, d_A);
  cudaMemcpy(A, d_A, total * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_scale);
  cudaFree(d_A);
}
