#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

// One thread per row: each thread walks its own row.
__global__ void row_norms_thread(const double* M, double* norms, size_t rows, size_t cols) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  const double* row = M + i * cols;
  double sum = 0.0;
  for (size_t j = 0; j < cols; ++j) sum += row[j] * row[j];
  norms[i] = sqrt(sum);
}

void row_l2_norms(std::vector<double> const& M, std::vector<double>& norms, size_t rows, size_t cols) {
  if (rows == 0) return;
  size_t total = rows * cols;
  double *d_M = nullptr, *d_norms = nullptr;
  cudaMalloc(&d_M, (total > 0 ? total : 1) * sizeof(double));
  cudaMalloc(&d_norms, rows * sizeof(double));
  if (total > 0) cudaMemcpy(d_M, M.data(), total * sizeof(double), cudaMemcpyHostToDevice);
  int block = 256;
  unsigned grid = (unsigned)((rows + block - 1) / block);
  row_norms_thread<<<grid, block>>>(d_M, d_norms, rows, cols);
  cudaMemcpy(norms.data(), d_norms, rows * sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(d_M);
  cudaFree(d_norms);
}
