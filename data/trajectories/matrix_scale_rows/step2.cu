#include <cuda_runtime.h>
#include <cstddef>

// 2-D mapping: blockIdx.y walks rows (grid-stride in y for very tall matrices),
// x threads walk columns. The row index is known without any integer division
// and the row's factor is loaded once into a register.
__global__ void scale_rows_2d(int rows, int cols, const float* __restrict__ scale, float* __restrict__ A) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (col >= cols) return;
  for (int row = blockIdx.y; row < rows; row += gridDim.y) {
    float s = scale[row];
    A[(size_t)row * cols + col] *= s;
  }
}

void scale_matrix_rows(int rows, int cols, const float* scale, float* A) {
  if (rows <= 0 || cols <= 0) return;
  size_t total = (size_t)rows * (size_t)cols;
  float *d_scale = nullptr, *d_A = nullptr;
  cudaMalloc(&d_scale, (size_t)rows * sizeof(float));
  cudaMalloc(&d_A, total * sizeof(float));
  cudaMemcpy(d_scale, scale, (size_t)rows * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_A, A, total * sizeof(float), cudaMemcpyHostToDevice);
  dim3 block(256);
  dim3 grid((unsigned)((cols + 255) / 256), (unsigned)(rows < 65535 ? rows : 65535));
  scale_rows_2d<<<grid, block>>>(rows, cols, d_scale, d_A);
  cudaMemcpy(A, d_A, total * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_scale);
  cudaFree(d_A);
}
