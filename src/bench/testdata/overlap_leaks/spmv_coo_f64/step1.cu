#include <cuda_runtime.h>

// One thread per non-zero: each adds its product into y[row] atomically
// (y is zeroed first, which also covers empty rows).
__global__ void coo_spmv_atomic(int nnz, const int* row, const int* col, const double* val, const double* x,
                                double* y) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= nnz) return;
  atomicAdd(&y[row[k]], val[k] * x[col[k]]);
}

void coo_spmv(int n, int nnz, const int* row, const int* col, const double* val, const double* x, double* y) {
  if (n <= 0) return;
  int *d_row = nullptr, *d_col = nullptr;
  double *d_val = nullptr, *d_x = nullptr, *d_y = nullptr;
  size_t nz = (size_t)(nnz > 0 ? nnz : 1);
  cudaMalloc(&d_row, nz * sizeof(int));
  cudaMalloc(&d_col, nz * sizeof(int));
  cudaMalloc(&d_val, nz * sizeof(double));
  cudaMalloc(&d_x, (size_t)n * sizeof(double));
  cudaMalloc(&d_y, (size_t)n * sizeof(double));
  if (nnz > 0) {
    cudaMemcpy(d_row, row, (size_t)nnz * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_col, col, (size_t)nnz * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_val, val, (size_t)nnz * sizeof(double), cudaMemcpyHostToDevice);
  }
  cudaMemcpy(d_x, x, (size_t)n * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemset(d_y, 0, (size_t)n * sizeof(double));
  if (nnz > 0) {
    int block = 256;
    coo_spmv_atomic<<<(nnz + block - 1) / block, block>>>(nnz, d_row, d_col, d_val, d_x, d_y);
  }
  cudaMemcpy(y, d_y, (size_t)n * sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(d_row);
  cudaFree(d_col);
  cudaFree(d_val);
  cudaFree(d_x);
  cudaFree(d_y);
}
