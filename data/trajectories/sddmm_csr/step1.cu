#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

// One thread per row i: for each stored (i, j) it computes the length-d dot
// product of A row i and B row j and scales it by the entry's value.
__global__ void sddmm_row_thread(int n, int d, const int* row_ptr, const int* col_idx, const float* vals,
                                 const float* A, const float* B, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float* a = A + (size_t)i * d;
  for (int k = row_ptr[i]; k < row_ptr[i + 1]; ++k) {
    const float* b = B + (size_t)col_idx[k] * d;
    float s = 0.0f;
    for (int t = 0; t < d; ++t) s += a[t] * b[t];
    out[k] = vals[k] * s;
  }
}

void sddmm_csr(int n, int d, const int* row_ptr, const int* col_idx, const float* vals, const float* A,
               const float* B, std::vector<float>& out) {
  int nnz = n > 0 ? row_ptr[n] : 0;
  out.assign((size_t)nnz, 0.0f);
  if (n <= 0 || nnz <= 0) return;
  size_t dense = (size_t)n * (size_t)(d > 0 ? d : 1);
  int *d_ptr = nullptr, *d_col = nullptr;
  float *d_vals = nullptr, *d_A = nullptr, *d_B = nullptr, *d_out = nullptr;
  cudaMalloc(&d_ptr, (size_t)(n + 1) * sizeof(int));
  cudaMalloc(&d_col, (size_t)nnz * sizeof(int));
  cudaMalloc(&d_vals, (size_t)nnz * sizeof(float));
  cudaMalloc(&d_A, dense * sizeof(float));
  cudaMalloc(&d_B, dense * sizeof(float));
  cudaMalloc(&d_out, (size_t)nnz * sizeof(float));
  cudaMemcpy(d_ptr, row_ptr, (size_t)(n + 1) * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_col, col_idx, (size_t)nnz * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_vals, vals, (size_t)nnz * sizeof(float), cudaMemcpyHostToDevice);
  if (d > 0) {
    cudaMemcpy(d_A, A, (size_t)n * d * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_B, B, (size_t)n * d * sizeof(float), cudaMemcpyHostToDevice);
  }
  int block = 128;
  sddmm_row_thread<<<(n + block - 1) / block, block>>>(n, d, d_ptr, d_col, d_vals, d_A, d_B, d_out);
  cudaMemcpy(out.data(), d_out, (size_t)nnz * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_ptr);
  cudaFree(d_col);
  cudaFree(d_vals);
  cudaFree(d_A);
  cudaFree(d_B);
  cudaFree(d_out);
}
