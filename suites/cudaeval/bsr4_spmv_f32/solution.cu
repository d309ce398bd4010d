#include <cuda_runtime.h>

// Step 1 (thread_mapping): the 4*mb outputs are computed in parallel, four
// per block row.
// Step 2 (load_balancing): one warp per block row, not one thread per scalar
// row, so block rows of 27 blocks and empty ones cost in proportion; lane l
// handles block slot l / 4 (8 blocks per pass) and block row r = l % 4.
// Step 3 (vectorized_memory_access): a block row (4 floats) and the matching
// x slice (4 floats) are each 16 contiguous, 16-byte aligned bytes: one float4
// load each.
// Step 4 (warp_shuffle_reduction): lanes with the same r (4 apart) hold
// partial sums of the same output; XOR shuffles over distances 4, 8 and 16
// combine them, and lanes 0..3 write the block row's four outputs.
// Step 5 (read_only_cache): block values and x are read through __ldg.
constexpr int kWarpsPerBlock = 8;

__global__ void bsr4_spmv_kernel(int mb, const int* __restrict__ brow_ptr,
                                 const int* __restrict__ bcol_idx,
                                 const float4* __restrict__ bvals4, const float4* __restrict__ x4,
                                 float* __restrict__ y) {
  int I = blockIdx.x * kWarpsPerBlock + (threadIdx.x >> 5);
  int lane = threadIdx.x & 31;
  if (I >= mb) return;
  int slot = lane >> 2, r = lane & 3;
  int start = brow_ptr[I], end = brow_ptr[I + 1];
  float acc = 0.0f;
  for (int e = start + slot; e < end; e += 8) {
    float4 a = __ldg(&bvals4[4LL * e + r]);
    float4 v = __ldg(&x4[__ldg(&bcol_idx[e])]);
    acc += a.x * v.x + a.y * v.y + a.z * v.z + a.w * v.w;
  }
  acc += __shfl_xor_sync(0xffffffffu, acc, 4);
  acc += __shfl_xor_sync(0xffffffffu, acc, 8);
  acc += __shfl_xor_sync(0xffffffffu, acc, 16);
  if (lane < 4) y[4LL * I + r] = acc;
}

void bsr4Spmv(int mb, int nb, int nnzb, const int* brow_ptr, const int* bcol_idx,
              const float* bvals, const float* x, float* y) {
  if (mb <= 0) return;
  size_t nzb = nnzb > 0 ? (size_t)nnzb : 1;
  size_t xn = nb > 0 ? (size_t)nb * 4 : 4;
  int *d_ptr = nullptr, *d_col = nullptr;
  float *d_vals = nullptr, *d_x = nullptr, *d_y = nullptr;
  cudaMalloc(&d_ptr, ((size_t)mb + 1) * sizeof(int));
  cudaMalloc(&d_col, nzb * sizeof(int));
  cudaMalloc(&d_vals, nzb * 16 * sizeof(float));
  cudaMalloc(&d_x, xn * sizeof(float));
  cudaMalloc(&d_y, (size_t)mb * 4 * sizeof(float));
  cudaMemcpy(d_ptr, brow_ptr, ((size_t)mb + 1) * sizeof(int), cudaMemcpyHostToDevice);
  if (nnzb > 0) {
    cudaMemcpy(d_col, bcol_idx, (size_t)nnzb * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_vals, bvals, (size_t)nnzb * 16 * sizeof(float), cudaMemcpyHostToDevice);
  }
  if (nb > 0) cudaMemcpy(d_x, x, (size_t)nb * 4 * sizeof(float), cudaMemcpyHostToDevice);
  int grid = (mb + kWarpsPerBlock - 1) / kWarpsPerBlock;
  bsr4_spmv_kernel<<<grid, kWarpsPerBlock * 32>>>(mb, d_ptr, d_col,
                                                  reinterpret_cast<const float4*>(d_vals),
                                                  reinterpret_cast<const float4*>(d_x), d_y);
  cudaMemcpy(y, d_y, (size_t)mb * 4 * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_ptr);
  cudaFree(d_col);
  cudaFree(d_vals);
  cudaFree(d_x);
  cudaFree(d_y);
}
