#include <cuda_runtime.h>

#include <vector>

// Step 1 (thread_mapping): one thread per row merges A's and B's sorted
// column lists (rows are independent).
// Step 2 (kernel_fission): the output offsets are unknown until every row is
// merged, so the work is split into a symbolic pass (count each row's merged
// length) and a numeric pass (write columns and values at known offsets).
// Step 3 (prefix_scan): the counts become C's row offsets by an exclusive
// scan on the device: one block walks the rows in chunks of 1024, each chunk
// scanned with warp shuffles and a shared array of warp totals, carrying the
// running total between chunks. The host reads back only nnz(C).
constexpr int kScanThreads = 1024;

__global__ void merge_count_kernel(int rows, const int* __restrict__ a_ptr,
                                   const int* __restrict__ a_col, const int* __restrict__ b_ptr,
                                   const int* __restrict__ b_col, int* __restrict__ counts) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  int p = a_ptr[i], q = b_ptr[i];
  const int pe = a_ptr[i + 1], qe = b_ptr[i + 1];
  int n = 0;
  while (p < pe && q < qe) {
    int ca = a_col[p], cb = b_col[q];
    p += ca <= cb;
    q += cb <= ca;
    ++n;
  }
  counts[i] = n + (pe - p) + (qe - q);
}

// c_ptr[0] = 0, c_ptr[i + 1] = counts[0] + ... + counts[i].
__global__ void scan_offsets_kernel(int rows, const int* __restrict__ counts,
                                    int* __restrict__ c_ptr) {
  __shared__ int warp_sums[kScanThreads / 32];
  __shared__ int carry;
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (threadIdx.x == 0) {
    carry = 0;
    c_ptr[0] = 0;
  }
  __syncthreads();
  for (int base = 0; base < rows; base += kScanThreads) {
    int i = base + threadIdx.x;
    int v = i < rows ? counts[i] : 0;
    for (int off = 1; off < 32; off <<= 1) {  // inclusive warp scan
      int t = __shfl_up_sync(0xffffffffu, v, off);
      if (lane >= off) v += t;
    }
    if (lane == 31) warp_sums[warp] = v;
    __syncthreads();
    if (warp == 0) {
      int w = warp_sums[lane];
      for (int off = 1; off < 32; off <<= 1) {
        int t = __shfl_up_sync(0xffffffffu, w, off);
        if (lane >= off) w += t;
      }
      warp_sums[lane] = w;  // inclusive scan of warp totals
    }
    __syncthreads();
    int prefix = carry + (warp > 0 ? warp_sums[warp - 1] : 0);
    if (i < rows) c_ptr[i + 1] = prefix + v;
    __syncthreads();  // everyone has read carry and warp_sums
    if (threadIdx.x == 0) carry += warp_sums[kScanThreads / 32 - 1];
    __syncthreads();
  }
}

__global__ void merge_fill_kernel(int rows, float alpha, const int* __restrict__ a_ptr,
                                  const int* __restrict__ a_col, const float* __restrict__ a_val,
                                  float beta, const int* __restrict__ b_ptr,
                                  const int* __restrict__ b_col, const float* __restrict__ b_val,
                                  const int* __restrict__ c_ptr, int* __restrict__ c_col,
                                  float* __restrict__ c_val) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  int p = a_ptr[i], q = b_ptr[i];
  const int pe = a_ptr[i + 1], qe = b_ptr[i + 1];
  int o = c_ptr[i];
  while (p < pe || q < qe) {
    if (q >= qe || (p < pe && a_col[p] < b_col[q])) {
      c_col[o] = a_col[p];
      c_val[o] = alpha * a_val[p];
      ++p;
    } else if (p >= pe || b_col[q] < a_col[p]) {
      c_col[o] = b_col[q];
      c_val[o] = beta * b_val[q];
      ++q;
    } else {
      c_col[o] = a_col[p];
      c_val[o] = alpha * a_val[p] + beta * b_val[q];
      ++p;
      ++q;
    }
    ++o;
  }
}

void csrMatrixAdd(int rows, int cols, float alpha, const int* a_ptr, const int* a_col,
                  const float* a_val, float beta, const int* b_ptr, const int* b_col,
                  const float* b_val, int* c_ptr, std::vector<int>& c_col,
                  std::vector<float>& c_val) {
  (void)cols;
  c_col.clear();
  c_val.clear();
  if (rows < 0) rows = 0;
  int nnz_a = a_ptr[rows], nnz_b = b_ptr[rows];
  size_t ptr_bytes = ((size_t)rows + 1) * sizeof(int);
  int *d_aptr = nullptr, *d_acol = nullptr, *d_bptr = nullptr, *d_bcol = nullptr,
      *d_counts = nullptr, *d_cptr = nullptr, *d_ccol = nullptr;
  float *d_aval = nullptr, *d_bval = nullptr, *d_cval = nullptr;
  cudaMalloc(&d_aptr, ptr_bytes);
  cudaMalloc(&d_bptr, ptr_bytes);
  cudaMalloc(&d_cptr, ptr_bytes);
  cudaMalloc(&d_counts, (size_t)(rows > 0 ? rows : 1) * sizeof(int));
  cudaMalloc(&d_acol, (size_t)(nnz_a > 0 ? nnz_a : 1) * sizeof(int));
  cudaMalloc(&d_aval, (size_t)(nnz_a > 0 ? nnz_a : 1) * sizeof(float));
  cudaMalloc(&d_bcol, (size_t)(nnz_b > 0 ? nnz_b : 1) * sizeof(int));
  cudaMalloc(&d_bval, (size_t)(nnz_b > 0 ? nnz_b : 1) * sizeof(float));
  cudaMemcpy(d_aptr, a_ptr, ptr_bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_bptr, b_ptr, ptr_bytes, cudaMemcpyHostToDevice);
  if (nnz_a > 0) {
    cudaMemcpy(d_acol, a_col, (size_t)nnz_a * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_aval, a_val, (size_t)nnz_a * sizeof(float), cudaMemcpyHostToDevice);
  }
  if (nnz_b > 0) {
    cudaMemcpy(d_bcol, b_col, (size_t)nnz_b * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_bval, b_val, (size_t)nnz_b * sizeof(float), cudaMemcpyHostToDevice);
  }
  const int block = 256;
  int grid = (rows + block - 1) / block;
  if (rows > 0) merge_count_kernel<<<grid, block>>>(rows, d_aptr, d_acol, d_bptr, d_bcol, d_counts);
  scan_offsets_kernel<<<1, kScanThreads>>>(rows, d_counts, d_cptr);
  int nnz_c = 0;
  cudaMemcpy(&nnz_c, d_cptr + rows, sizeof(int), cudaMemcpyDeviceToHost);
  cudaMalloc(&d_ccol, (size_t)(nnz_c > 0 ? nnz_c : 1) * sizeof(int));
  cudaMalloc(&d_cval, (size_t)(nnz_c > 0 ? nnz_c : 1) * sizeof(float));
  if (rows > 0)
    merge_fill_kernel<<<grid, block>>>(rows, alpha, d_aptr, d_acol, d_aval, beta, d_bptr, d_bcol,
                                       d_bval, d_cptr, d_ccol, d_cval);
  cudaMemcpy(c_ptr, d_cptr, ptr_bytes, cudaMemcpyDeviceToHost);
  c_col.resize((size_t)nnz_c);
  c_val.resize((size_t)nnz_c);
  if (nnz_c > 0) {
    cudaMemcpy(c_col.data(), d_ccol, (size_t)nnz_c * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(c_val.data(), d_cval, (size_t)nnz_c * sizeof(float), cudaMemcpyDeviceToHost);
  }
  cudaFree(d_aptr);
  cudaFree(d_bptr);
  cudaFree(d_cptr);
  cudaFree(d_counts);
  cudaFree(d_acol);
  cudaFree(d_aval);
  cudaFree(d_bcol);
  cudaFree(d_bval);
  cudaFree(d_ccol);
  cudaFree(d_cval);
}
