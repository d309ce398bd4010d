#include <cuda_runtime.h>

// Step 1 (thread_mapping): a block owns a 256-column strip of A over a range
// of rows; thread t owns column j = j0 + t of that strip.
// Step 2 (kernel_fusion): q = A p and s = A^T r come from one read of A: each
// loaded A[i][j] feeds s_j (r_i * A_ij) and the row sum of q_i (A_ij * p_j).
// Step 3 (memory_coalescing): threads along columns read consecutive floats of
// each row of A; s_j accumulates in a register across all the block's rows
// (the column-wise product never reads A column by column).
// Step 4 (shared_memory_tiling): the block's r values (per 32-row sub-tile)
// are staged in shared memory, and the products A_ij p_j of a 32 x 256
// sub-tile are written to shared memory for the row reduction.
// Step 5 (bank_conflict_avoidance): in the row reduction a warp reads 4 rows
// at once, 8 lanes per row reading columns c, c+8, ...; with rows of 256
// floats all four rows would hit the same 8 banks. Rows are padded to 264
// floats (a stride of 8 banks), so the warp's 32 reads hit 32 banks.
// Step 6 (warp_shuffle_reduction): each row's 256 products are summed by 8
// lanes (32 each) and combined with shuffles over lanes 1, 2 and 4 apart.
// Step 7 (atomic_operations): per-tile partials of q (from each column strip)
// and of s (from each row range) are added to double accumulators with
// atomicAdd; a last kernel rounds them to float.
constexpr int kCols = 256;    // threads per block = columns per strip
constexpr int kSubRows = 32;  // rows per sub-tile
constexpr int kRowsPerBlock = 512;

__global__ void bicg_fused_kernel(int m, int n, const float* __restrict__ A,
                                  const float* __restrict__ p, const float* __restrict__ r,
                                  double* __restrict__ qacc, double* __restrict__ sacc) {
  __shared__ float prod[kSubRows][kCols + 8];
  __shared__ float rs[kSubRows];
  int j0 = blockIdx.x * kCols;
  int j = j0 + threadIdx.x;
  bool col_ok = j < n;
  float pj = col_ok ? __ldg(&p[j]) : 0.0f;
  double s_j = 0.0;
  int row_begin = blockIdx.y * kRowsPerBlock;
  int row_end = min(m, row_begin + kRowsPerBlock);
  int lane8 = threadIdx.x & 7, row_of = threadIdx.x >> 3;  // 32 rows x 8 lanes
  for (int i0 = row_begin; i0 < row_end; i0 += kSubRows) {
    int rows = min(kSubRows, row_end - i0);
    if (threadIdx.x < kSubRows)
      rs[threadIdx.x] = threadIdx.x < rows ? __ldg(&r[i0 + threadIdx.x]) : 0.0f;
    __syncthreads();
    float s_part = 0.0f;
    for (int ii = 0; ii < kSubRows; ++ii) {
      float a = (col_ok && ii < rows) ? __ldg(&A[(long long)(i0 + ii) * n + j]) : 0.0f;
      s_part += rs[ii] * a;
      prod[ii][threadIdx.x] = a * pj;
    }
    s_j += s_part;
    __syncthreads();
    float q_part = 0.0f;
    for (int c = lane8; c < kCols; c += 8) q_part += prod[row_of][c];
    q_part += __shfl_xor_sync(0xffffffffu, q_part, 1);
    q_part += __shfl_xor_sync(0xffffffffu, q_part, 2);
    q_part += __shfl_xor_sync(0xffffffffu, q_part, 4);
    if (lane8 == 0 && row_of < rows) atomicAdd(&qacc[i0 + row_of], (double)q_part);
    __syncthreads();  // prod and rs are rewritten by the next sub-tile
  }
  if (col_ok && row_end > row_begin) atomicAdd(&sacc[j], s_j);
}

__global__ void zero_kernel(long long count, double* __restrict__ v) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) v[i] = 0.0;
}

__global__ void round_kernel(long long count, const double* __restrict__ v,
                             float* __restrict__ out) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) out[i] = (float)v[i];
}

void bicgDualMatvec(int m, int n, const float* A, const float* p, const float* r, float* q,
                    float* s) {
  int mm = m > 0 ? m : 0, nn = n > 0 ? n : 0;
  if (mm == 0 && nn == 0) return;
  size_t a_elems = (size_t)mm * nn;
  float *d_a = nullptr, *d_p = nullptr, *d_r = nullptr, *d_q = nullptr, *d_s = nullptr;
  double *d_qacc = nullptr, *d_sacc = nullptr;
  cudaMalloc(&d_a, (a_elems > 0 ? a_elems : 1) * sizeof(float));
  cudaMalloc(&d_p, (size_t)(nn > 0 ? nn : 1) * sizeof(float));
  cudaMalloc(&d_r, (size_t)(mm > 0 ? mm : 1) * sizeof(float));
  cudaMalloc(&d_q, (size_t)(mm > 0 ? mm : 1) * sizeof(float));
  cudaMalloc(&d_s, (size_t)(nn > 0 ? nn : 1) * sizeof(float));
  cudaMalloc(&d_qacc, (size_t)(mm > 0 ? mm : 1) * sizeof(double));
  cudaMalloc(&d_sacc, (size_t)(nn > 0 ? nn : 1) * sizeof(double));
  if (a_elems > 0) cudaMemcpy(d_a, A, a_elems * sizeof(float), cudaMemcpyHostToDevice);
  if (nn > 0) cudaMemcpy(d_p, p, (size_t)nn * sizeof(float), cudaMemcpyHostToDevice);
  if (mm > 0) cudaMemcpy(d_r, r, (size_t)mm * sizeof(float), cudaMemcpyHostToDevice);
  const int t = 256;
  if (mm > 0) zero_kernel<<<(mm + t - 1) / t, t>>>(mm, d_qacc);
  if (nn > 0) zero_kernel<<<(nn + t - 1) / t, t>>>(nn, d_sacc);
  if (a_elems > 0) {
    int row_blocks = (mm + kRowsPerBlock - 1) / kRowsPerBlock;
    dim3 grid((nn + kCols - 1) / kCols, row_blocks);
    bicg_fused_kernel<<<grid, kCols>>>(mm, nn, d_a, d_p, d_r, d_qacc, d_sacc);
  }
  if (mm > 0) {
    round_kernel<<<(mm + t - 1) / t, t>>>(mm, d_qacc, d_q);
    cudaMemcpy(q, d_q, (size_t)mm * sizeof(float), cudaMemcpyDeviceToHost);
  }
  if (nn > 0) {
    round_kernel<<<(nn + t - 1) / t, t>>>(nn, d_sacc, d_s);
    cudaMemcpy(s, d_s, (size_t)nn * sizeof(float), cudaMemcpyDeviceToHost);
  }
  cudaFree(d_a);
  cudaFree(d_p);
  cudaFree(d_r);
  cudaFree(d_q);
  cudaFree(d_s);
  cudaFree(d_qacc);
  cudaFree(d_sacc);
}
