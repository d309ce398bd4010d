#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

#define CHUNK_ROWS 128

// Phase 1 with 16-byte loads: for an even number of columns every row is
// 16-byte aligned, so each thread sums two adjacent columns from double2 loads.
__global__ void col_partial_sums_vec2(const double* __restrict__ A, double* __restrict__ partial, size_t rows,
                                      size_t cols) {
  size_t p = (size_t)blockIdx.x * blockDim.x + threadIdx.x;  // column pair
  size_t pairs = cols / 2;
  if (p >= pairs) return;
  size_t r0 = (size_t)blockIdx.y * CHUNK_ROWS;
  size_t r1 = r0 + CHUNK_ROWS < rows ? r0 + CHUNK_ROWS : rows;
  const double2* A2 = reinterpret_cast<const double2*>(A);
  double sx = 0.0, sy = 0.0;
  for (size_t i = r0; i < r1; ++i) {
    double2 v = A2[i * pairs + p];
    sx += v.x;
    sy += v.y;
  }
  double2 out;
  out.x = sx;
  out.y = sy;
  reinterpret_cast<double2*>(partial)[(size_t)blockIdx.y * pairs + p] = out;
}

__global__ void col_partial_sums(const double* __restrict__ A, double* __restrict__ partial, size_t rows,
                                 size_t cols) {
  size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= cols) return;
  size_t r0 = (size_t)blockIdx.y * CHUNK_ROWS;
  size_t r1 = r0 + CHUNK_ROWS < rows ? r0 + CHUNK_ROWS : rows;
  double s = 0.0;
  for (size_t i = r0; i < r1; ++i) s += A[i * cols + j];
  partial[(size_t)blockIdx.y * cols + j] = s;
}

__global__ void col_combine(const double* __restrict__ partial, double* __restrict__ sums, size_t nchunks,
                            size_t cols) {
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
  if (cols % 2 == 0) {
    size_t pairs = cols / 2;
    dim3 grid1((unsigned)((pairs + block - 1) / block), (unsigned)nchunks);
    col_partial_sums_vec2<<<grid1, block>>>(d_A, d_partial, rows, cols);
  } else {
    dim3 grid1((unsigned)((cols + block - 1) / block), (unsigned)nchunks);
    col_partial_sums<<<grid1, block>>>(d_A, d_partial, rows, cols);
  }
  col_combine<<<(unsigned)((cols + block - 1) / block), block>>>(d_partial, d_sums, nchunks, cols);
  cudaMemcpy(sums.data(), d_sums, cols * sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(d_A);
  cudaFree(d_partial);
  cudaFree(d_sums);
}
