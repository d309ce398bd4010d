#include <cuda_runtime.h>

// Step 1 (thread_mapping): one thread per row looks up that row's diagonal.
// Step 2 (early_exit): columns are sorted, so instead of scanning the row the
// thread binary-searches it for column i and leaves the loop as soon as it
// hits the entry or the interval empties; rows with i past their last column
// (or i >= cols) are rejected by one comparison before any search.
__global__ void csr_inverse_diag_kernel(int rows, const int* __restrict__ row_ptr,
                                        const int* __restrict__ col_idx,
                                        const double* __restrict__ values,
                                        double* __restrict__ dinv) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  int lo = row_ptr[i];
  int hi = row_ptr[i + 1] - 1;
  double diag = 0.0;
  if (hi >= lo && col_idx[lo] <= i && col_idx[hi] >= i) {
    while (lo <= hi) {
      int mid = lo + ((hi - lo) >> 1);
      int c = col_idx[mid];
      if (c == i) {
        diag = values[mid];
        break;
      }
      if (c < i) {
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
  }
  dinv[i] = diag != 0.0 ? 1.0 / diag : 0.0;
}

void csrInverseDiagonal(int rows, int cols, const int* row_ptr, const int* col_idx,
                        const double* values, double* dinv) {
  (void)cols;
  if (rows <= 0) return;
  int nnz = row_ptr[rows];
  size_t nz = nnz > 0 ? (size_t)nnz : 1;
  int *d_ptr = nullptr, *d_col = nullptr;
  double *d_val = nullptr, *d_out = nullptr;
  cudaMalloc(&d_ptr, ((size_t)rows + 1) * sizeof(int));
  cudaMalloc(&d_col, nz * sizeof(int));
  cudaMalloc(&d_val, nz * sizeof(double));
  cudaMalloc(&d_out, (size_t)rows * sizeof(double));
  cudaMemcpy(d_ptr, row_ptr, ((size_t)rows + 1) * sizeof(int), cudaMemcpyHostToDevice);
  if (nnz > 0) {
    cudaMemcpy(d_col, col_idx, (size_t)nnz * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_val, values, (size_t)nnz * sizeof(double), cudaMemcpyHostToDevice);
  }
  const int block = 256;
  int grid = (rows + block - 1) / block;
  csr_inverse_diag_kernel<<<grid, block>>>(rows, d_ptr, d_col, d_val, d_out);
  cudaMemcpy(dinv, d_out, (size_t)rows * sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(d_ptr);
  cudaFree(d_col);
  cudaFree(d_val);
  cudaFree(d_out);
}
