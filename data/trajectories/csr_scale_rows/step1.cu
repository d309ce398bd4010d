#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

// One thread per row scales that row's values.
__global__ void csr_scale_row_thread(int n, const int* row_ptr, const double* scale, const double* values,
                                     double* scaled) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double s = scale[i];
  for (int k = row_ptr[i]; k < row_ptr[i + 1]; ++k) scaled[k] = values[k] * s;
}

void csr_scale_rows(int n, const int* row_ptr, const double* scale, const double* values,
                    std::vector<double>& scaled) {
  int nnz = n > 0 ? row_ptr[n] : 0;
  scaled.assign((size_t)nnz, 0.0);
  if (n <= 0 || nnz <= 0) return;
  int* d_ptr = nullptr;
  double *d_scale = nullptr, *d_val = nullptr, *d_out = nullptr;
  cudaMalloc(&d_ptr, (size_t)(n + 1) * sizeof(int));
  cudaMalloc(&d_scale, (size_t)n * sizeof(double));
  cudaMalloc(&d_val, (size_t)nnz * sizeof(double));
  cudaMalloc(&d_out, (size_t)nnz * sizeof(double));
  cudaMemcpy(d_ptr, row_ptr, (size_t)(n + 1) * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_scale, scale, (size_t)n * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemcpy(d_val, values, (size_t)nnz * sizeof(double), cudaMemcpyHostToDevice);
  int block = 256;
  csr_scale_row_thread<<<(n + block - 1) / block, block>>>(n, d_ptr, d_scale, d_val, d_out);
  cudaMemcpy(scaled.data(), d_out, (size_t)nnz * sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(d_ptr);
  cudaFree(d_scale);
  cudaFree(d_val);
  cudaFree(d_out);
}
