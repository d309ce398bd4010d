#include <cuda_runtime.h>

// Same mapping; the weights are declared const __restrict__ and read with
// __ldg, so both passes over a row go through the read-only (texture) data
// path, and the second pass can hit the lines the first one brought into L1.
__global__ void cdf_row_thread(int n, int m, const float* __restrict__ w, float* __restrict__ cdf) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float* r = w + (size_t)i * m;
  float* c = cdf + (size_t)i * m;
  float total = 0.0f;
  for (int j = 0; j < m; ++j) total += __ldg(r + j);
  float run = 0.0f;
  for (int j = 0; j < m; ++j) {
    run += __ldg(r + j);
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
