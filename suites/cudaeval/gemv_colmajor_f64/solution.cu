#include <cuda_runtime.h>
#include <cstddef>

// Thread i owns row i: for column-major A, the 32 threads of a warp read 32
// consecutive doubles of the same column (coalesced). The columns are split
// into chunks of CHUNK along blockIdx.y so that short-and-wide matrices still
// fill the GPU; each chunk's slice of x is staged in shared memory, and four
// independent accumulators keep several loads in flight. A second kernel adds
// the per-chunk partial sums in a fixed order (deterministic).
#define ROWS_PER_BLOCK 256
#define CHUNK 256

__global__ void gemv_col_partial_kernel(int m, int n, const double* __restrict__ A, const double* __restrict__ x,
                                        double* __restrict__ partial) {
  __shared__ double xs[CHUNK];
  int i = blockIdx.x * ROWS_PER_BLOCK + threadIdx.x;
  int j0 = blockIdx.y * CHUNK;
  int len = n - j0;
  if (len > CHUNK) len = CHUNK;
  for (int t = threadIdx.x; t < len; t += blockDim.x) xs[t] = x[j0 + t];
  __syncthreads();
  if (i >= m) return;  // after the only barrier

  const double* a = A + (size_t)j0 * m + i;
  double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
  int t = 0;
  for (; t + 3 < len; t += 4) {
    s0 += a[(size_t)(t + 0) * m] * xs[t + 0];
    s1 += a[(size_t)(t + 1) * m] * xs[t + 1];
    s2 += a[(size_t)(t + 2) * m] * xs[t + 2];
    s3 += a[(size_t)(t + 3) * m] * xs[t + 3];
  }
  for (; t < len; ++t) s0 += a[(size_t)t * m] * xs[t];
  partial[(size_t)blockIdx.y * m + i] = (s0 + s1) + (s2 + s3);
}

__global__ void gemv_col_combine_kernel(int m, int chunks, const double* __restrict__ partial, double* __restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= m) return;
  double s = 0.0;
  for (int c = 0; c < chunks; ++c) s += partial[(size_t)c * m + i];
  y[i] = s;
}

void matVecColMajorF64(int m, int n, const double* A, const double* x, double* y) {
  if (m <= 0) return;
  int nn = n > 0 ? n : 0;
  int chunks = (nn + CHUNK - 1) / CHUNK;
  if (chunks < 1) chunks = 1;
  double *dA = nullptr, *dx = nullptr, *dpart = nullptr, *dy = nullptr;
  size_t abytes = (size_t)m * (size_t)nn * sizeof(double);
  cudaMalloc(&dA, abytes > 0 ? abytes : sizeof(double));
  cudaMalloc(&dx, (nn > 0 ? nn : 1) * sizeof(double));
  cudaMalloc(&dpart, (size_t)chunks * m * sizeof(double));
  cudaMalloc(&dy, (size_t)m * sizeof(double));
  if (nn > 0) {
    cudaMemcpy(dA, A, abytes, cudaMemcpyHostToDevice);
    cudaMemcpy(dx, x, (size_t)nn * sizeof(double), cudaMemcpyHostToDevice);
  }
  dim3 grid((unsigned)((m + ROWS_PER_BLOCK - 1) / ROWS_PER_BLOCK), (unsigned)chunks);
  gemv_col_partial_kernel<<<grid, ROWS_PER_BLOCK>>>(m, nn, dA, dx, dpart);
  gemv_col_combine_kernel<<<(m + 255) / 256, 256>>>(m, chunks, dpart, dy);
  cudaMemcpy(y, dy, (size_t)m * sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(dA);
  cudaFree(dx);
  cudaFree(dpart);
  cudaFree(dy);
}
