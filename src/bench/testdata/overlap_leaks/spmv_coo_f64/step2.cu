#include <cuda_runtime.h>

// Thread per non-zero with atomics; the four input streams and the gathered
// x values are read through the read-only cache.
__global__ void coo_spmv_atomic_ldg(int nnz, const int* __restrict__ row, const int* __restrict__ col,
                                    const double* __restrict__ val, const double* __restrict__ x, double* y) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= nnz) return;
  int c = __ldg(&col[k]);
  atomicAdd(&y[__ldg(&row[k])], __ldg(&val[k]) * __ldg(&x[c]));
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
    coo_spmv_atomic_ldg<<<(nnz + block - 1) / block, block>>>(nnz, d_row, d_col, d_val, d_x, d_y);
  }
  cudaMemcpy(y, d_y, (size_t)n * sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(d_row);
  cudaFree(d_col);
  cudaFree(d_val);
  cudaFree(d_x);
  cudaFree(d_y);
}
