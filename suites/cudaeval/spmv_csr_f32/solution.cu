#include <cuda_runtime.h>
#include <cstddef>

// One warp per row (rather than one thread per row): a row of 600 entries and
// an empty row no longer sit in the same warp as 32 independent serial loops,
// the warp's lanes read consecutive col_idx / values entries (coalesced), and
// the gathered x values go through the read-only cache. Lane partial sums are
// combined with a shuffle reduction.
__global__ void spmv_f32_warp_kernel(int rows, const int* __restrict__ row_ptr, const int* __restrict__ col_idx,
                                     const float* __restrict__ vals, const float* __restrict__ x,
                                     float* __restrict__ y) {
  int warp = (int)(((size_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5);
  int lane = threadIdx.x & 31;
  if (warp >= rows) return;  // uniform per warp
  int start = __ldg(&row_ptr[warp]);
  int end = __ldg(&row_ptr[warp + 1]);
  float sum = 0.0f;
  for (int k = start + lane; k < end; k += 32) {
    sum += __ldg(&vals[k]) * __ldg(&x[__ldg(&col_idx[k])]);
  }
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, off);
  if (lane == 0) y[warp] = sum;
}

void csrMatVecF32(int rows, int cols, const int* row_ptr, const int* col_idx, const float* values,
                  const float* x, float* y) {
  if (rows <= 0) return;
  int nnz = row_ptr[rows];
  int *d_ptr = nullptr, *d_col = nullptr;
  float *d_val = nullptr, *d_x = nullptr, *d_y = nullptr;
  size_t nz = nnz > 0 ? (size_t)nnz : 1;
  size_t nx = cols > 0 ? (size_t)cols : 1;
  cudaMalloc(&d_ptr, ((size_t)rows + 1) * sizeof(int));
  cudaMalloc(&d_col, nz * sizeof(int));
  cudaMalloc(&d_val, nz * sizeof(float));
  cudaMalloc(&d_x, nx * sizeof(float));
  cudaMalloc(&d_y, (size_t)rows * sizeof(float));
  cudaMemcpy(d_ptr, row_ptr, ((size_t)rows + 1) * sizeof(int), cudaMemcpyHostToDevice);
  if (nnz > 0) {
    cudaMemcpy(d_col, col_idx, (size_t)nnz * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_val, values, (size_t)nnz * sizeof(float), cudaMemcpyHostToDevice);
  }
  if (cols > 0) cudaMemcpy(d_x, x, (size_t)cols * sizeof(float), cudaMemcpyHostToDevice);
  const int block = 256;  // 8 rows per block
  size_t threads = (size_t)rows * 32;
  unsigned grid = (unsigned)((threads + block - 1) / block);
  spmv_f32_warp_kernel<<<grid, block>>>(rows, d_ptr, d_col, d_val, d_x, d_y);
  cudaMemcpy(y, d_y, (size_t)rows * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_ptr);
  cudaFree(d_col);
  cudaFree(d_val);
  cudaFree(d_x);
  cudaFree(d_y);
}
