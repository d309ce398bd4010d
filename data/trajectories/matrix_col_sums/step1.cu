#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

// One thread per column walks all rows; adjacent threads read adjacent
// addresses of each row.
__global__ void col_sums_thread(const double* A, double* sums, size_t rows, size_t cols) {
  size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= cols) return;
  double s = 0.0;
  for (size_t i = 0; i < rows; ++i) s += A[i * cols + j];
  sums[j] = s;
}

void column_sums(std::vector<double> const& A, std::vector<double>& sums, size_t rows, size_t cols) {
  if (cols == 0) return;
  size_t total = rows * cols;
  double *d_A = nullptr, *d_sums = nullptr;
  cudaMalloc(&d_A, (total > 0 ? total : 1) * sizeof(double));
  cudaMalloc(&d_sums, cols * sizeof(double));
  if (total > 0) cudaMemcpy(d_A, A.data(), total * sizeof(double), cudaMemcpyHostToDevice);
  int block = 256;
  col_sums_thread<<<(unsigned)((cols + block - 1) / block), block>>>(d_A, d_sums, rows, cols);
  cudaMemcpy(sums.data(), d_sums, cols * sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(d_A);
  cudaFree(d_sums);
}
