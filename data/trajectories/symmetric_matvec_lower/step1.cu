#include <cuda_runtime.h>
#include <cstddef>

// One thread per output row i: the stored part of row i gives S[i][j] for
// j <= i, and column i below the diagonal gives S[j][i] for j > i.
__global__ void symv_row_thread(int n, const double* S, const double* x, double* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const double* row = S + (size_t)i * n;
  double acc = 0.0;
  for (int j = 0; j <= i; ++j) acc += row[j] * x[j];
  for (int j = i + 1; j < n; ++j) acc += S[(size_t)j * n + i] * x[j];
  y[i] = acc;
}

void symv_lower_dense(int n, const double* S, const double* x, double* y) {
  if (n <= 0) return;
  size_t s_bytes = (size_t)n * (size_t)n * sizeof(double);
  double *d_S = nullptr, *d_x = nullptr, *d_y = nullptr;
  cudaMalloc(&d_S, s_bytes);
  cudaMalloc(&d_x, (size_t)n * sizeof(double));
  cudaMalloc(&d_y, (size_t)n * sizeof(double));
  cudaMemcpy(d_S, S, s_bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_x, x, (size_t)n * sizeof(double), cudaMemcpyHostToDevice);
  int block = 128;
  symv_row_thread<<<(n + block - 1) / block, block>>>(n, d_S, d_x, d_y);
  cudaMemcpy(y, d_y, (size_t)n * sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(d_S);
  cudaFree(d_x);
  cudaFree(d_y);
}
