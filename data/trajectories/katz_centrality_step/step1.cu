#include <cuda_runtime.h>

// One thread per vertex: sum the scores of its listed neighbours.
__global__ void katz_thread(int n, const int* row_ptr, const int* col_idx, double alpha, double beta,
                            const double* x, double* x_new) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  double s = 0.0;
  for (int k = row_ptr[v]; k < row_ptr[v + 1]; ++k) s += x[col_idx[k]];
  x_new[v] = beta + alpha * s;
}

void katz_step(int n, const int* row_ptr, const int* col_idx, double alpha, double beta, const double* x,
               double* x_new) {
  if (n <= 0) return;
  int nnz = row_ptr[n];
  int *d_ptr = nullptr, *d_col = nullptr;
  double *d_x = nullptr, *d_new = nullptr;
  cudaMalloc(&d_ptr, (size_t)(n + 1) * sizeof(int));
  cudaMalloc(&d_col, (size_t)(nnz > 0 ? nnz : 1) * sizeof(int));
  cudaMalloc(&d_x, (size_t)n * sizeof(double));
  cudaMalloc(&d_new, (size_t)n * sizeof(double));
  cudaMemcpy(d_ptr, row_ptr, (size_t)(n + 1) * sizeof(int), cudaMemcpyHostToDevice);
  if (nnz > 0) cudaMemcpy(d_col, col_idx, (size_t)nnz * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_x, x, (size_t)n * sizeof(double), cudaMemcpyHostToDevice);
  int block = 256;
  katz_thread<<<(n + block - 1) / block, block>>>(n, d_ptr, d_col, alpha, beta, d_x, d_new);
  cudaMemcpy(x_new, d_new, (size_t)n * sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(d_ptr);
  cudaFree(d_col);
  cudaFree(d_x);
  cudaFree(d_new);
}
