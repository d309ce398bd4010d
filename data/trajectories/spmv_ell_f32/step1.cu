#include <cuda_runtime.h>
#include <cstddef>

// One thread per row. With the slot-major layout, slot k of a warp's 32 rows
// is 32 consecutive ints/floats, so index and value loads are coalesced.
__global__ void ell_spmv_row(int n, int width, const int* ell_col, const float* ell_val, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = 0.0f;
  for (int k = 0; k < width; ++k) {
    size_t e = (size_t)k * n + i;
    s += ell_val[e] * x[ell_col[e]];
  }
  y[i] = s;
}

void ell_spmv(int n, int width, const int* ell_col, const float* ell_val, const float* x, float* y) {
  if (n <= 0) return;
  size_t slots = (size_t)n * (size_t)(width > 0 ? width : 0);
  int* d_col = nullptr;
  float *d_val = nullptr, *d_x = nullptr, *d_y = nullptr;
  cudaMalloc(&d_col, (slots > 0 ? slots : 1) * sizeof(int));
  cudaMalloc(&d_val, (slots > 0 ? slots : 1) * sizeof(float));
  cudaMalloc(&d_x, (size_t)n * sizeof(float));
  cudaMalloc(&d_y, (size_t)n * sizeof(float));
  if (slots > 0) {
    cudaMemcpy(d_col, ell_col, slots * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_val, ell_val, slots * sizeof(float), cudaMemcpyHostToDevice);
  }
  cudaMemcpy(d_x, x, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
  int block = 256;
  ell_spmv_row<<<(n + block - 1) / block, block>>>(n, width, d_col, d_val, d_x, d_y);
  cudaMemcpy(y, d_y, (size_t)n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_col);
  cudaFree(d_val);
  cudaFree(d_x);
  cudaFree(d_y);
}
