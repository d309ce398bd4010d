#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

// Phase 1: one thread per row computes the row's L1 norm (serial order).
__global__ void row_norm_kernel(int n, const int* __restrict__ row_ptr, const float* __restrict__ vals,
                                float* __restrict__ norm) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = 0.0f;
  for (int k = row_ptr[i]; k < row_ptr[i + 1]; ++k) s += fabsf(vals[k]);
  norm[i] = s;
}

// Largest row r in [0, n) with row_ptr[r] <= k: the row that owns entry k
// (empty rows are skipped because their successor has the same start).
__device__ __forceinline__ int owner_row(const int* __restrict__ row_ptr, int n, int k) {
  int lo = 0, hi = n - 1;
  while (lo < hi) {
    int mid = (lo + hi + 1) >> 1;
    if (row_ptr[mid] <= k) lo = mid; else hi = mid - 1;
  }
  return lo;
}

// Phase 2: one thread per stored value, coalesced over the nnz array.
__global__ void scale_kernel(int n, int nnz, const int* __restrict__ row_ptr, const float* __restrict__ vals,
                             const float* __restrict__ norm, float* __restrict__ out) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= nnz) return;
  float s = norm[owner_row(row_ptr, n, k)];
  out[k] = s > 0.0f ? vals[k] / s : 0.0f;
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
  float* d_norm = nullptr;
  cudaMalloc(&d_norm, (size_t)n * sizeof(float));
  int block = 256;
  row_norm_kernel<<<(n + block - 1) / block, block>>>(n, d_ptr, d_vals, d_norm);
  scale_kernel<<<(nnz + block - 1) / block, block>>>(n, nnz, d_ptr, d_vals, d_norm, d_out);
  cudaMemcpy(out.data(), d_out, (size_t)nnz * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_ptr);
  cudaFree(d_vals);
  cudaFree(d_out);
  cudaFree(d_norm);
}
