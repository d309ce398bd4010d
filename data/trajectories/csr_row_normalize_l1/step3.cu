#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

__global__ void row_norm_kernel(int n, const int* __restrict__ row_ptr, const float* __restrict__ vals,
                                float* __restrict__ norm) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = 0.0f;
  for (int k = row_ptr[i]; k < row_ptr[i + 1]; ++k) s += fabsf(vals[k]);
  norm[i] = s;
}

__device__ __forceinline__ int owner_row(const int* __restrict__ row_ptr, int n, int k) {
  int lo = 0, hi = n - 1;
  while (lo < hi) {
    int mid = (lo + hi + 1) >> 1;
    if (row_ptr[mid] <= k) lo = mid; else hi = mid - 1;
  }
  return lo;
}

__device__ __forceinline__ float scaled(float v, float s) { return s > 0.0f ? v / s : 0.0f; }

// Phase 2 with float4: thread t owns entries 4t .. 4t+3 (16-byte aligned in
// the cudaMalloc buffers). One binary search finds the row of entry 4t; the
// next entries advance the row while it has ended (skipping empty rows).
// The last nnz % 4 entries are handled by the first threads.
__global__ void scale_kernel_vec4(int n, int nnz, const int* __restrict__ row_ptr,
                                  const float* __restrict__ vals, const float* __restrict__ norm,
                                  float* __restrict__ out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int n4 = nnz >> 2;
  if (t < n4) {
    int k = t << 2;
    int r = owner_row(row_ptr, n, k);
    float4 v = reinterpret_cast<const float4*>(vals)[t];
    float4 o;
    o.x = scaled(v.x, norm[r]);
    while (row_ptr[r + 1] <= k + 1) ++r;
    o.y = scaled(v.y, norm[r]);
    while (row_ptr[r + 1] <= k + 2) ++r;
    o.z = scaled(v.z, norm[r]);
    while (row_ptr[r + 1] <= k + 3) ++r;
    o.w = scaled(v.w, norm[r]);
    reinterpret_cast<float4*>(out)[t] = o;
  }
  if (t < (nnz & 3)) {
    int k = (n4 << 2) + t;
    out[k] = scaled(vals[k], norm[owner_row(row_ptr, n, k)]);
  }
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
  int work = (nnz >> 2) > 3 ? (nnz >> 2) : 3;  // at least 3 threads for the tail
  scale_kernel_vec4<<<(work + block - 1) / block, block>>>(n, nnz, d_ptr, d_vals, d_norm, d_out);
  cudaMemcpy(out.data(), d_out, (size_t)nnz * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_ptr);
  cudaFree(d_vals);
  cudaFree(d_out);
  cudaFree(d_norm);
}
