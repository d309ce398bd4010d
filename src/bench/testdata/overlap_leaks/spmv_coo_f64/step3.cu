#include <cuda_runtime.h>

#define FULL 0xffffffffu

// Thread per non-zero, but the products of one row inside a warp are combined
// before touching memory. Entries are sorted by row, so every row occupies a
// contiguous run of lanes: an inclusive segmented scan (Hillis-Steele with
// shuffles, adding only from lanes with the same row) leaves the run's total
// in its last lane, which alone issues the atomicAdd.
__global__ void coo_spmv_segwarp(int nnz, const int* __restrict__ row, const int* __restrict__ col,
                                 const double* __restrict__ val, const double* __restrict__ x, double* y) {
  int lane = threadIdx.x & 31;
  long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  int r = -1;  // lanes past the end get row -1 and value 0
  double v = 0.0;
  if (k < nnz) {
    r = __ldg(&row[k]);
    v = __ldg(&val[k]) * __ldg(&x[__ldg(&col[k])]);
  }
  // every lane of the warp takes part in the shuffles below
  for (int off = 1; off < 32; off <<= 1) {
    double vo = __shfl_up_sync(FULL, v, off);
    int ro = __shfl_up_sync(FULL, r, off);
    if (lane >= off && ro == r) v += vo;
  }
  int rnext = __shfl_down_sync(FULL, r, 1);
  bool seg_end = (lane == 31) || (rnext != r);
  if (r >= 0 && seg_end) atomicAdd(&y[r], v);
}

void coo_spmv(int n, int nnz, const int* row, const int* col, const double* val, const double* x, double* y) {
  if (n <= 0) return;
  int *d_row = nullptr, *d_col = nullptr;
  double *d_val = nullptr, *d_x = nullptr, *d_y = nullptr;
  size_t nz = (size_t)(nnz > 0 ? nnz : 1);
  cudaMalloc(&d_row, nz * sizeof(int));
  cudaMalloc(&d_col, nz * sizeof(int));
  cudaMalloc(&d_val, nz * sizeof(double));
  cudaMalloc(&d_x, (size_t)n * sizeof(double));
  cudaMalloc(&d_y, (size_t)n * sizeof(double));
  if (nnz > 0) {
    cudaMemcpy(d_row, row, (size_t)nnz * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_col, col, (size_t)nnz * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_val, val, (size_t)nnz * sizeof(double), cudaMemcpyHostToDevice);
  }
  cudaMemcpy(d_x, x, (size_t)n * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemset(d_y, 0, (size_t)n * sizeof(double));
  if (nnz > 0) {
    int block = 256;
    coo_spmv_segwarp<<<(nnz + block - 1) / block, block>>>(nnz, d_row, d_col, d_val, d_x, d_y);
  }
  cudaMemcpy(y, d_y, (size_t)n * sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(d_row);
  cudaFree(d_col);
  cudaFree(d_val);
  cudaFree(d_x);
  cudaFree(d_y);
}
