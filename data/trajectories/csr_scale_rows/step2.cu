#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

// Row owning stored entry k: the last r with row_ptr[r] <= k (rows are
// searched in [0, n); row_ptr[n] = nnz > k guarantees row_ptr[r+1] > k).
__device__ int row_of_entry(const int* __restrict__ row_ptr, int n, int k) {
  int lo = 0, hi = n;  // find first r in [0, n) with row_ptr[r] > k, answer is r - 1
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    if (__ldg(&row_ptr[mid]) <= k) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

// One thread per stored value: consecutive threads read and write consecutive
// values (fully coalesced) and every thread does the same amount of work,
// whatever the row lengths; each thread finds its row by binary search.
__global__ void csr_scale_entry(int n, int nnz, const int* __restrict__ row_ptr, const double* __restrict__ scale,
                                const double* __restrict__ values, double* __restrict__ scaled) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= nnz) return;
  int r = row_of_entry(row_ptr, n, k);
  scaled[k] = values[k] * __ldg(&scale[r]);
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
  csr_scale_entry<<<(nnz + block - 1) / block, block>>>(n, nnz, d_ptr, d_scale, d_val, d_out);
  cudaMemcpy(scaled.data(), d_out, (size_t)nnz * sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(d_ptr);
  cudaFree(d_scale);
  cudaFree(d_val);
  cudaFree(d_out);
}
