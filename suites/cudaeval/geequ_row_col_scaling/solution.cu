#include <cuda_runtime.h>
#include <math.h>

// Step 1 (thread_mapping): rows (then columns) are reduced in parallel.
// Step 2 (warp_shuffle_reduction): a warp per row reduces max |A[i][j]| with
// __shfl_xor_sync; lane 0 writes r[i].
// Step 3 (kernel_fission): the column maxima need every row factor first, so
// the work is split into a row kernel and a column kernel (plus a tiny
// reciprocal kernel), the kernel boundaries providing the ordering.
// Step 4 (memory_coalescing): in the column kernel threads run along the
// columns, so every row is read as consecutive doubles; rows are split into
// chunks over blockIdx.y to fill the GPU.
// Step 5 (atomic_operations): chunk maxima are combined with atomicMax on the
// 64-bit patterns of the non-negative doubles, which order like unsigned
// integers, so the maximum is exact.
constexpr int kRowWarps = 8;
constexpr int kColThreads = 128;
constexpr int kRowsPerChunk = 128;

__global__ void row_factor_kernel(int m, int n, const double* __restrict__ A,
                                  double* __restrict__ r) {
  int i = blockIdx.x * kRowWarps + (threadIdx.x >> 5);
  int lane = threadIdx.x & 31;
  if (i >= m) return;
  const double* row = A + (long long)i * n;
  double mx = 0.0;
  for (int j = lane; j < n; j += 32) mx = fmax(mx, fabs(__ldg(&row[j])));
  for (int off = 16; off > 0; off >>= 1) mx = fmax(mx, __shfl_xor_sync(0xffffffffu, mx, off));
  if (lane == 0) r[i] = mx > 0.0 ? 1.0 / mx : 1.0;
}

__global__ void col_zero_kernel(int n, unsigned long long* __restrict__ cbits) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < n) cbits[j] = 0ull;  // the bit pattern of +0.0
}

__global__ void col_max_kernel(int m, int n, const double* __restrict__ A,
                               const double* __restrict__ r,
                               unsigned long long* __restrict__ cbits) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= n) return;
  int chunks = (m + kRowsPerChunk - 1) / kRowsPerChunk;
  for (int ch = blockIdx.y; ch < chunks; ch += gridDim.y) {
    int i0 = ch * kRowsPerChunk, i1 = min(m, i0 + kRowsPerChunk);
    double mx = 0.0;
    for (int i = i0; i < i1; ++i)
      mx = fmax(mx, __ldg(&r[i]) * fabs(__ldg(&A[(long long)i * n + j])));
    atomicMax(&cbits[j], (unsigned long long)__double_as_longlong(mx));
  }
}

__global__ void col_factor_kernel(int n, const unsigned long long* __restrict__ cbits,
                                  double* __restrict__ c) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= n) return;
  double mx = __longlong_as_double((long long)cbits[j]);
  c[j] = mx > 0.0 ? 1.0 / mx : 1.0;
}

void geequRowColScaling(int m, int n, const double* A, double* r, double* c) {
  int mm = m > 0 ? m : 0, nn = n > 0 ? n : 0;
  if (mm == 0 && nn == 0) return;
  size_t ae = (size_t)mm * nn;
  double *d_a = nullptr, *d_r = nullptr, *d_c = nullptr;
  unsigned long long* d_bits = nullptr;
  cudaMalloc(&d_a, (ae > 0 ? ae : 1) * sizeof(double));
  cudaMalloc(&d_r, (size_t)(mm > 0 ? mm : 1) * sizeof(double));
  cudaMalloc(&d_c, (size_t)(nn > 0 ? nn : 1) * sizeof(double));
  cudaMalloc(&d_bits, (size_t)(nn > 0 ? nn : 1) * sizeof(unsigned long long));
  if (ae > 0) cudaMemcpy(d_a, A, ae * sizeof(double), cudaMemcpyHostToDevice);
  if (mm > 0)
    row_factor_kernel<<<(mm + kRowWarps - 1) / kRowWarps, kRowWarps * 32>>>(mm, nn, d_a, d_r);
  if (nn > 0) {
    int gx = (nn + kColThreads - 1) / kColThreads;
    col_zero_kernel<<<gx, kColThreads>>>(nn, d_bits);
    if (mm > 0) {
      int chunks = (mm + kRowsPerChunk - 1) / kRowsPerChunk;
      dim3 grid(gx, chunks < 65535 ? chunks : 65535);
      col_max_kernel<<<grid, kColThreads>>>(mm, nn, d_a, d_r, d_bits);
    }
    col_factor_kernel<<<gx, kColThreads>>>(nn, d_bits, d_c);
    cudaMemcpy(c, d_c, (size_t)nn * sizeof(double), cudaMemcpyDeviceToHost);
  }
  if (mm > 0) cudaMemcpy(r, d_r, (size_t)mm * sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(d_a);
  cudaFree(d_r);
  cudaFree(d_c);
  cudaFree(d_bits);
}
