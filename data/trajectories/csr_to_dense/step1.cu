#include <cuda_runtime.h>
#include <cstddef>

// The dense array is cleared with cudaMemset; then one thread per row writes
// that row's stored entries to their columns.
__global__ void csr_scatter_rows(int rows, int cols, const int* row_ptr, const int* col_idx, const float* values,
                                 float* dense) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  float* out = dense + (size_t)i * cols;
  for (int k = row_ptr[i]; k < row_ptr[i + 1]; ++k) out[col_idx[k]] = values[k];
}

void csr_expand_dense(int rows, int cols, const int* row_ptr, const int* col_idx, const float* values,
                      float* dense) {
  if (rows <= 0 || cols <= 0) return;
  int nnz = row_ptr[rows];
  size_t total = (size_t)rows * (size_t)cols;
  int *d_ptr = nullptr, *d_col = nullptr;
  float *d_val = nullptr, *d_dense = nullptr;
  cudaMalloc(&d_ptr, (size_t)(rows + 1) * sizeof(int));
  cudaMalloc(&d_col, (size_t)(nnz > 0 ? nnz : 1) * sizeof(int));
  cudaMalloc(&d_val, (size_t)(nnz > 0 ? nnz : 1) * sizeof(float));
  cudaMalloc(&d_dense, total * sizeof(float));
  cudaMemcpy(d_ptr, row_ptr, (size_t)(rows + 1) * sizeof(int), cudaMemcpyHostToDevice);
  if (nnz > 0) {
    cudaMemcpy(d_col, col_idx, (size_t)nnz * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_val, values, (size_t)nnz * sizeof(float), cudaMemcpyHostToDevice);
  }
  cudaMemset(d_dense, 0, total * sizeof(float));
  int block = 256;
  csr_scatter_rows<<<(rows + block - 1) / block, block>>>(rows, cols, d_ptr, d_col, d_val, d_dense);
  cudaMemcpy(dense, d_dense, total * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_ptr);
  cudaFree(d_col);
  cudaFree(d_val);
  cudaFree(d_dense);
}
