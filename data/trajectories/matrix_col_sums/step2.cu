#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

#define CHUNK_ROWS 128

// Phase 1: blockIdx.y picks a chunk of rows; each thread sums its column over
// that chunk and stores the partial. Phase 2: one thread per column adds the
// chunk partials in a fixed order (deterministic, no atomics).
__global__ void col_partial_sums(const double* A, double* partial, size_t rows, size_t cols) {
  size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= cols) return;
  size_t r0 = (size_t)blockIdx.y * CHUNK_ROWS;
  size_t r1 = r0 + CHUNK_ROWS < rows ? r0 + CHUNK_ROWS : rows;
  double s = 0.0;
  for (size_t i = r0; i < r1; ++i) s += A[i * cols + j];
  partial[(size_t)blockIdx.y * cols + j] = s;
}

__global__ void col_combine(const double* partial, double* sums, size_t nchunks, size_t cols) {
  size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= cols) return;
  double s = 0.0;
  for (size_t c = 0; c < nchunks; ++c) s += partial[c * cols + j];
  sums[j] = s;
}

void column_sums(std::vector<double> const& A, std::vector<double>& sums, size_t rows, size_t cols) {
  if (cols == 0) return;
  size_t total = rows * cols;
  size_t nchunks = (rows + CHUNK_ROWS - 1) / CHUNK_ROWS;
  if (nchunks == 0) nchunks = 1;
  double *d_A = nullptr, *d_partial = nullptr, *d_sums = nullptr;
  cudaMalloc(&d_A, (total > 0 ? total : 1) * sizeof(double));
  cudaMalloc(&d_partial, nchunks * cols * sizeof(double));
  cudaMalloc(&d_sums, cols * sizeof(double));
  if (total > 0) cudaMemcpy(d_A, A.data(), total * sizeof(double), cudaMemcpyHostToDevice);
  int block = 256;
  dim3 grid1((unsigned)((cols + block - 1) / block), (unsigned)nchunks);
  col_partial_sums<<<grid1, block>>>(d_A, d_partial, rows, cols);
  col_combine<<<(unsigned)((cols + block - 1) / block), block>>>(d_partial, d_sums, nchunks, cols);
  cudaMemcpy(sums.data(), d_sums, cols * sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(d_A);
  cudaFree(d_partial);
  cudaFree(d_sums);
}
