#include <cuda_runtime.h>

// One thread per row: the serial total, then the serial running sum.
__global__ void cdf_row_thread(int n, int m, const float* w, float* cdf) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float* r = w + (size_t)i * m;
  float* c = cdf + (size_t)i * m;
  float total = 0.0f;
  for (int j = 0; j < m; ++j) total += r[j];
  float run = 0.0f;
  for (int j = 0; j < m; ++j) {
    run += r[j];
    c[j] = run / total;
  }
}

void categorical_cdf_rows(int n, int m, const float* w, float* cdf) {
  if (n <= 0 || m <= 0) return;
  size_t bytes = (size_t)n * m * sizeof(float);
  float *dw = nullptr, *dc = nullptr;
  cudaMalloc(&dw, bytes);
  cudaMalloc(&dc, bytes);
  cudaMemcpy(dw, w, bytes, cudaMemcpyHostToDevice);
  int block = 128;
  cdf_row_thread<<<(n + block - 1) / block, block>>>(n, m, dw, dc);
  cudaMemcpy(cdf, dc, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dw);
  cudaFree(dc);
}
