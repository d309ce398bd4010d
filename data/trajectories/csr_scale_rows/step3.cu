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

#define CHUNK 1024  // stored values per block
#define SLICE 2048  // largest row range staged in shared memory

// Each block owns CHUNK consecutive stored values. Thread 0 finds the first
// and last row the chunk touches (two global searches per block instead of
// one per value); the block stages that slice of row_ptr and scale in shared
// memory, and each value's row search then runs over the short shared slice.
__global__ void csr_scale_chunk(int n, int nnz, const int* __restrict__ row_ptr, const double* __restrict__ scale,
                                const double* __restrict__ values, double* __restrict__ scaled) {
  __shared__ int s_ptr[SLICE];
  __shared__ double s_scale[SLICE];
  __shared__ int s_r0, s_r1;
  int k0 = blockIdx.x * CHUNK;
  int k1 = min(nnz, k0 + CHUNK);
  if (threadIdx.x == 0) {
    s_r0 = row_of_entry(row_ptr, n, k0);
    s_r1 = row_of_entry(row_ptr, n, k1 - 1);
  }
  __syncthreads();
  int r0 = s_r0;
  int cnt = s_r1 - r0 + 1;
  bool staged = cnt <= SLICE;  // block-uniform (many empty rows can make the range long)
  if (staged) {
    for (int j = threadIdx.x; j < cnt; j += blockDim.x) {
      s_ptr[j] = __ldg(&row_ptr[r0 + j]);
      s_scale[j] = __ldg(&scale[r0 + j]);
    }
  }
  __syncthreads();
  for (int k = k0 + threadIdx.x; k < k1; k += blockDim.x) {
    double sc;
    if (staged) {
      int lo = 0, hi = cnt;  // first j with s_ptr[j] > k; s_ptr[0] <= k0 <= k, so j >= 1
      while (lo < hi) {
        int mid = (lo + hi) >> 1;
        if (s_ptr[mid] <= k) lo = mid + 1;
        else hi = mid;
      }
      sc = s_scale[lo - 1];
    } else {
      sc = __ldg(&scale[row_of_entry(row_ptr, n, k)]);
    }
    scaled[k] = values[k] * sc;
  }
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
  csr_scale_chunk<<<(nnz + CHUNK - 1) / CHUNK, 256>>>(n, nnz, d_ptr, d_scale, d_val, d_out);
  cudaMemcpy(scaled.data(), d_out, (size_t)nnz * sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(d_ptr);
  cudaFree(d_scale);
  cudaFree(d_val);
  cudaFree(d_out);
}
