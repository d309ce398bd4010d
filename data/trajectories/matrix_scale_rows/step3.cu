#include <cuda_runtime.h>
#include <cstddef>

// float4 version: when cols is a multiple of 4 every row starts on a 16-byte
// boundary, so each thread scales four consecutive elements with one 128-bit
// load and one 128-bit store. Other widths keep the scalar 2-D kernel.
__global__ void scale_rows_vec4(int rows, int cols4, const float* __restrict__ scale, float4* __restrict__ A4) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cols4) return;
  for (int row = blockIdx.y; row < rows; row += gridDim.y) {
    float s = scale[row];
    size_t k = (size_t)row * cols4 + c;
    float4 v = A4[k];
    v.x *= s;
    v.y *= s;
    v.z *= s;
    v.w *= s;
    A4[k] = v;
  }
}

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
  unsigned gy = (unsigned)(rows < 65535 ? rows : 65535);
  if (cols % 4 == 0) {
    int cols4 = cols / 4;
    dim3 grid((unsigned)((cols4 + 255) / 256), gy);
    scale_rows_vec4<<<grid, 256>>>(rows, cols4, d_scale, reinterpret_cast<float4*>(d_A));
  } else {
    dim3 grid((unsigned)((cols + 255) / 256), gy);
    scale_rows_2d<<<grid, 256>>>(rows, cols, d_scale, d_A);
  }
  cudaMemcpy(A, d_A, total * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_scale);
  cudaFree(d_A);
}
