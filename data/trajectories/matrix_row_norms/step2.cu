#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

// One warp per row: lanes stride over the row (coalesced), then a shuffle
// reduction folds the 32 partial sums; lane 0 writes the square root.
__global__ void row_norms_warp(const double* M, double* norms, size_t rows, size_t cols) {
  size_t warp = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  int lane = threadIdx.x & 31;
  if (warp >= rows) return;  // whole warp leaves together
  const double* row = M + warp * cols;
  double sum = 0.0;
  for (size_t j = lane; j < cols; j += 32) sum += row[j] * row[j];
  for (int off = 16; off > 0; off >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, off);
  if (lane == 0) norms[warp] = sqrt(sum);
}

void row_l2_norms(std::vector<double> const& M, std::vector<double>& norms, size_t rows, size_t cols) {
  if (rows == 0) return;
  size_t total = rows * cols;
  double *d_M = nullptr, *d_norms = nullptr;
  cudaMalloc(&d_M, (total > 0 ? total : 1) * sizeof(double));
  cudaMalloc(&d_norms, rows * sizeof(double));
  if (total > 0) cudaMemcpy(d_M, M.data(), total * sizeof(double), cudaMemcpyHostToDevice);
  int block = 256;  // 8 rows per block
  unsigned grid = (unsigned)((rows * 32 + block - 1) / block);
  row_norms_warp<<<grid, block>>>(d_M, d_norms, rows, cols);
  cudaMemcpy(norms.data(), d_norms, rows * sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(d_M);
  cudaFree(d_norms);
}
