#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

#define FULL 0xffffffffu

#define MAXC 4  // register chunks of A per lane: d <= 128

// Warp per row, A row in registers, read-only loads; the row's entries are
// processed in pairs so each warp has two independent B gathers and two
// reduction chains in flight.
__global__ void sddmm_row_warp_regs(int n, int d, const int* __restrict__ row_ptr, const int* __restrict__ col_idx,
                                    const float* __restrict__ vals, const float* __restrict__ A,
                                    const float* __restrict__ B, float* __restrict__ out) {
  int i = (int)(((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5);
  int lane = threadIdx.x & 31;
  if (i >= n) return;
  const float* a = A + (size_t)i * d;
  float areg[MAXC];
#pragma unroll
  for (int c = 0; c < MAXC; ++c) {
    int t = lane + 32 * c;
    areg[c] = (t < d) ? a[t] : 0.0f;
  }
  int end = __ldg(&row_ptr[i + 1]);
  int k = __ldg(&row_ptr[i]);
  // Two stored entries per iteration: both B-row gathers are issued before
  // either is consumed, and the two shuffle reductions are interleaved.
  for (; k + 1 < end; k += 2) {
    const float* b0 = B + (size_t)__ldg(&col_idx[k]) * d;
    const float* b1 = B + (size_t)__ldg(&col_idx[k + 1]) * d;
    float s0 = 0.0f, s1 = 0.0f;
#pragma unroll
    for (int c = 0; c < MAXC; ++c) {
      int t = lane + 32 * c;
      if (t < d) {
        float x0 = __ldg(&b0[t]);
        float x1 = __ldg(&b1[t]);
        s0 += areg[c] * x0;
        s1 += areg[c] * x1;
      }
    }
    for (int off = 16; off > 0; off >>= 1) {
      s0 += __shfl_down_sync(FULL, s0, off);
      s1 += __shfl_down_sync(FULL, s1, off);
    }
    if (lane == 0) {
      out[k] = __ldg(&vals[k]) * s0;
      out[k + 1] = __ldg(&vals[k + 1]) * s1;
    }
  }
  if (k < end) {  // odd leftover entry (warp-uniform test)
    const float* b = B + (size_t)__ldg(&col_idx[k]) * d;
    float s = 0.0f;
#pragma unroll
    for (int c = 0; c < MAXC; ++c) {
      int t = lane + 32 * c;
      if (t < d) s += areg[c] * __ldg(&b[t]);
    }
    for (int off = 16; off > 0; off >>= 1) s += __shfl_down_sync(FULL, s, off);
    if (lane == 0) out[k] = __ldg(&vals[k]) * s;
  }
}

// Fallback for d > 128: warp per row, A re-read from global memory.
__global__ void sddmm_row_warp(int n, int d, const int* __restrict__ row_ptr, const int* __restrict__ col_idx,
                               const float* __restrict__ vals, const float* __restrict__ A,
                               const float* __restrict__ B, float* __restrict__ out) {
  int i = (int)(((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5);
  int lane = threadIdx.x & 31;
  if (i >= n) return;  // whole warp
  const float* a = A + (size_t)i * d;
  int end = __ldg(&row_ptr[i + 1]);
  for (int k = __ldg(&row_ptr[i]); k < end; ++k) {
    const float* b = B + (size_t)__ldg(&col_idx[k]) * d;
    float s = 0.0f;
    for (int t = lane; t < d; t += 32) s += __ldg(&a[t]) * __ldg(&b[t]);
    for (int off = 16; off > 0; off >>= 1) s += __shfl_down_sync(FULL, s, off);
    if (lane == 0) out[k] = __ldg(&vals[k]) * s;
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
  int block = 256;  // 8 rows per block
  long long threads = (long long)n * 32;
  unsigned grid = (unsigned)((threads + block - 1) / block);
  if (d <= 32 * MAXC) sddmm_row_warp_regs<<<grid, block>>>(n, d, d_ptr, d_col, d_vals, d_A, d_B, d_out);
  else sddmm_row_warp<<<grid, block>>>(n, d, d_ptr, d_col, d_vals, d_A, d_B, d_out);
  cudaMemcpy(out.data(), d_out, (size_t)nnz * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_ptr);
  cudaFree(d_col);
  cudaFree(d_vals);
  cudaFree(d_A);
  cudaFree(d_B);
  cudaFree(d_out);
}
