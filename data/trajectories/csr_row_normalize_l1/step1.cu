#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

// One thread per row: the serial norm loop, then the serial scaling loop.
__global__ void normalize_row_thread(int n, const int* row_ptr, const float* vals, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int b = row_ptr[i], e = row_ptr[i + 1];
  float s = 0.0f;
  for (int k = b; k < e; ++k) s += fabsf(vals[k]);
  for (int k = b; k < e; ++k) out[k] = s > 0.0f ? vals[k] / s : 0.0f;
}

void csr_row_normalize_l1(int n, int m, const int* row_ptr, const float* vals, std::vector<float>& out) {
  (void)m;
  int nnz = n > 0 ? row_ptr[n] : 0;
  out.assign((size_t)nnz, 0.0f);
  if (n <= 0 || nnz <= 0) return;
  int* d_ptr = nullptr;
  float *d_vals = nullptr, *d_out = nullptr;
  cudaMalloc(&d_ptr, (size_t)(n + 1) * sizeof(int));
  cudaMalloc(&d_vals, (size_t)nnz * sizeof(float));
  cudaMalloc(&d_out, (size_t)nnz * sizeof(float));
  cudaMemcpy(d_ptr, row_ptr, (size_t)(n + 1) * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_vals, vals, (size_t)nnz * sizeof(float), cudaMemcpyHostToDevice);
  int block = 256;
  normalize_row_thread<<<(n + block - 1) / block, block>>>(n, d_ptr, d_vals, d_out);
  cudaMemcpy(out.data(), d_out, (size_t)nnz * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_ptr);
  cudaFree(d_vals);
  cudaFree(d_out);
}
