#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

// One warp per row: lane l reads A[i][l], A[i][l+32], ... so every load of the
// warp covers 128 contiguous bytes of the row; the 32 partial sums are then
// combined with register shuffles.
__global__ void gemv_row_warp_kernel(const float* __restrict__ A, const float* __restrict__ x,
                                     float* __restrict__ y, size_t rows, size_t cols) {
  size_t warp = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  int lane = threadIdx.x & 31;
  if (warp >= rows) return;  // whole warps leave together: rows are per warp
  const float* row = A + warp * cols;
  float sum = 0.0f;
  for (size_t j = lane; j < cols; j += 32) sum += row[j] * x[j];
  for (int off = 16; off > 0; off >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, off);
  if (lane == 0) y[warp] = sum;
}

void matVecRowMajor(std::vector<float> const& A, std::vector<float> const& x, std::vector<float>& y,
                    size_t rows, size_t cols) {
  if (rows == 0) return;
  if (cols == 0) {
    for (size_t i = 0; i < rows; ++i) y[i] = 0.0f;
    return;
  }
  float *dA = nullptr, *dx = nullptr, *dy = nullptr;
  cudaMalloc(&dA, rows * cols * sizeof(float));
  cudaMalloc(&dx, cols * sizeof(float));
  cudaMalloc(&dy, rows * sizeof(float));
  cudaMemcpy(dA, A.data(), rows * cols * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dx, x.data(), cols * sizeof(float), cudaMemcpyHostToDevice);
  const int block = 256;  // 8 rows per block
  size_t threads = rows * 32;
  size_t grid = (threads + block - 1) / block;
  gemv_row_warp_kernel<<<(unsigned)grid, block>>>(dA, dx, dy, rows, cols);
  cudaMemcpy(y.data(), dy, rows * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(dA);
  cudaFree(dx);
  cudaFree(dy);
}
