#include <cuda_runtime.h>

// Step 1 (thread_mapping): output rows are independent; a row's k outputs
// are computed together.
// Step 2 (load_balancing): one warp per sparse row instead of one thread, so
// a row of 90 entries and an empty row no longer share a warp as serial loops.
// Step 3 (memory_coalescing): the warp's lanes span the row's output
// columns: lane l accumulates Y[i][c0 + l] and Y[i][c0 + 32 + l], so each
// gathered row of X is read as consecutive floats.
// Step 4 (register_caching): the warp loads the row's (column, value) pairs
// 32 at a time, one per lane, keeps them in registers and broadcasts each
// with __shfl_sync, instead of every lane re-reading every pair.
// Step 5 (read_only_cache): X is read-only and its rows are gathered
// repeatedly by different rows of A: loads go through __ldg.
// Entries are accumulated in storage order, as in the reference.
constexpr int kWarpsPerBlock = 8;

__global__ void csr_spmm_kernel(int rows, int k, const int* __restrict__ row_ptr,
                                const int* __restrict__ col_idx, const float* __restrict__ values,
                                const float* __restrict__ X, float* __restrict__ Y) {
  int warp = blockIdx.x * kWarpsPerBlock + (threadIdx.x >> 5);
  int lane = threadIdx.x & 31;
  if (warp >= rows) return;  // whole warp leaves together
  int start = row_ptr[warp];
  int end = row_ptr[warp + 1];
  float* y = Y + (long long)warp * k;
  for (int c0 = 0; c0 < k; c0 += 64) {
    int t0 = c0 + lane, t1 = c0 + 32 + lane;
    bool has0 = t0 < k, has1 = t1 < k;
    float acc0 = 0.0f, acc1 = 0.0f;
    for (int base = start; base < end; base += 32) {
      int e = base + lane;
      int my_col = 0;
      float my_val = 0.0f;
      if (e < end) {
        my_col = col_idx[e];
        my_val = values[e];
      }
      int count = min(32, end - base);
      for (int q = 0; q < count; ++q) {
        int col = __shfl_sync(0xffffffffu, my_col, q);
        float v = __shfl_sync(0xffffffffu, my_val, q);
        const float* x = X + (long long)col * k;
        if (has0) acc0 += v * __ldg(&x[t0]);
        if (has1) acc1 += v * __ldg(&x[t1]);
      }
    }
    if (has0) y[t0] = acc0;
    if (has1) y[t1] = acc1;
  }
}

void csrSpmmRowMajor(int rows, int cols, int k, const int* row_ptr, const int* col_idx,
                     const float* values, const float* X, float* Y) {
  if (rows <= 0 || k <= 0) return;
  int nnz = row_ptr[rows];
  size_t nz = nnz > 0 ? (size_t)nnz : 1;
  size_t x_elems = (size_t)(cols > 0 ? cols : 0) * k;
  size_t y_elems = (size_t)rows * k;
  int *d_ptr = nullptr, *d_col = nullptr;
  float *d_val = nullptr, *d_x = nullptr, *d_y = nullptr;
  cudaMalloc(&d_ptr, ((size_t)rows + 1) * sizeof(int));
  cudaMalloc(&d_col, nz * sizeof(int));
  cudaMalloc(&d_val, nz * sizeof(float));
  cudaMalloc(&d_x, (x_elems > 0 ? x_elems : 1) * sizeof(float));
  cudaMalloc(&d_y, y_elems * sizeof(float));
  cudaMemcpy(d_ptr, row_ptr, ((size_t)rows + 1) * sizeof(int), cudaMemcpyHostToDevice);
  if (nnz > 0) {
    cudaMemcpy(d_col, col_idx, (size_t)nnz * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_val, values, (size_t)nnz * sizeof(float), cudaMemcpyHostToDevice);
  }
  if (x_elems > 0) cudaMemcpy(d_x, X, x_elems * sizeof(float), cudaMemcpyHostToDevice);
  int grid = (rows + kWarpsPerBlock - 1) / kWarpsPerBlock;
  csr_spmm_kernel<<<grid, kWarpsPerBlock * 32>>>(rows, k, d_ptr, d_col, d_val, d_x, d_y);
  cudaMemcpy(Y, d_y, y_elems * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_ptr);
  cudaFree(d_col);
  cudaFree(d_val);
  cudaFree(d_x);
  cudaFree(d_y);
}
