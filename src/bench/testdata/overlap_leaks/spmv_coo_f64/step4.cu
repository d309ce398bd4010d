#include <cuda_runtime.h>

#define FULL 0xffffffffu

// Warp-segmented reduction as before (sorted rows -> contiguous lane runs,
// shuffle segmented scan, one atomic per run), now launched with exactly as
// many blocks as the GPU keeps resident (occupancy API x SM count); warps
// loop over chunks instead of the runtime scheduling one block per 256
// entries.
__global__ void coo_spmv_segwarp_gs(int nnz, const int* __restrict__ row, const int* __restrict__ col,
                                    const double* __restrict__ val, const double* __restrict__ x, double* y) {
  int lane = threadIdx.x & 31;
  long long warp = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  long long nwarps = ((long long)gridDim.x * blockDim.x) >> 5;
  // Each warp walks 32-entry chunks with a grid-sized stride; the loop test
  // depends only on the warp index, so all lanes stay together.
  for (long long base = warp * 32; base < nnz; base += nwarps * 32) {
    long long k = base + lane;
    int r = -1;
    double v = 0.0;
    if (k < nnz) {
      r = __ldg(&row[k]);
      v = __ldg(&val[k]) * __ldg(&x[__ldg(&col[k])]);
    }
    for (int off = 1; off < 32; off <<= 1) {
      double vo = __shfl_up_sync(FULL, v, off);
      int ro = __shfl_up_sync(FULL, r, off);
      if (lane >= off && ro == r) v += vo;
    }
    int rnext = __shfl_down_sync(FULL, r, 1);
    bool seg_end = (lane == 31) || (rnext != r);
    if (r >= 0 && seg_end) atomicAdd(&y[r], v);
  }
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
    int per_sm = 0, sms = 0, dev = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, coo_spmv_segwarp_gs, block, 0);
    long long resident = (long long)(per_sm > 0 ? per_sm : 1) * (sms > 0 ? sms : 1);
    long long need = ((long long)nnz + block - 1) / block;
    int grid = (int)(need < resident ? need : resident);
    coo_spmv_segwarp_gs<<<grid, block>>>(nnz, d_row, d_col, d_val, d_x, d_y);
  }
  cudaMemcpy(y, d_y, (size_t)n * sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(d_row);
  cudaFree(d_col);
  cudaFree(d_val);
  cudaFree(d_x);
  cudaFree(d_y);
}
