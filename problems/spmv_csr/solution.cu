#include <cuda_runtime.h>

// One warp per row: lanes stride over the row's non-zeros (coalesced reads of
// col_idx and values), then a shuffle reduction.
__global__ void spmv_csr_warp(int n, const int* __restrict__ row_ptr, const int* __restrict__ col_idx,
                              const double* __restrict__ values, const double* __restrict__ x,
                              double* __restrict__ y) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  int lane = threadIdx.x & 31;
  if (warp >= n) return;
  double sum = 0.0;
  for (int k = row_ptr[warp] + lane; k < row_ptr[warp + 1]; k += 32) sum += values[k] * __ldg(&x[col_idx[k]]);
  for (int off = 16; off > 0; off >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, off);
  if (lane == 0) y[warp] = sum;
}

void spmv_csr(int n, const int* row_ptr, const int* col_idx, const double* values, const double* x,
              double* y) {
  if (n <= 0) return;
  int nnz = row_ptr[n];
  int *d_row = nullptr, *d_col = nullptr;
  double *d_val = nullptr, *d_x = nullptr, *d_y = nullptr;
  cudaMalloc(&d_row, (n + 1) * sizeof(int));
  cudaMalloc(&d_col, (nnz > 0 ? nnz : 1) * sizeof(int));
  cudaMalloc(&d_val, (nnz > 0 ? nnz : 1) * sizeof(double));
  cudaMalloc(&d_x, n * sizeof(double));
  cudaMalloc(&d_y, n * sizeof(double));
  cudaMemcpy(d_row, row_ptr, (n + 1) * sizeof(int), cudaMemcpyHostToDevice);
  if (nnz > 0) {
    cudaMemcpy(d_col, col_idx, nnz * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_val, values, nnz * sizeof(double), cudaMemcpyHostToDevice);
  }
  cudaMemcpy(d_x, x, n * sizeof(double), cudaMemcpyHostToDevice);
  int block = 256;
  long long threads = (long long)n * 32;
  int grid = (int)((threads + block - 1) / block);
  spmv_csr_warp<<<grid, block>>>(n, d_row, d_col, d_val, d_x, d_y);
  cudaMemcpy(y, d_y, n * sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(d_row);
  cudaFree(d_col);
  cudaFree(d_val);
  cudaFree(d_x);
  cudaFree(d_y);
}
