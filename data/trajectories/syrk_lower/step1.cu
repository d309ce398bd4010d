#include <cuda_runtime.h>
#include <cstddef>

// One thread per entry of C: (i, j) on or below the diagonal computes the dot
// product of rows i and j of A; entries above the diagonal are zeroed.
__global__ void syrk_lower_naive(int n, int k, const float* A, float* C) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= n || j >= n) return;
  float s = 0.0f;
  if (j <= i) {
    const float* ai = A + (size_t)i * k;
    const float* aj = A + (size_t)j * k;
    for (int p = 0; p < k; ++p) s += ai[p] * aj[p];
  }
  C[(size_t)i * n + j] = s;
}

void syrk_lower_aat(int n, int k, const float* A, float* C) {
  if (n <= 0) return;
  size_t a_elems = (size_t)n * (size_t)(k > 0 ? k : 1);
  size_t c_bytes = (size_t)n * (size_t)n * sizeof(float);
  float *d_A = nullptr, *d_C = nullptr;
  cudaMalloc(&d_A, a_elems * sizeof(float));
  cudaMalloc(&d_C, c_bytes);
  if (k > 0) cudaMemcpy(d_A, A, (size_t)n * k * sizeof(float), cudaMemcpyHostToDevice);
  dim3 block(16, 16);
  dim3 grid((unsigned)((n + 15) / 16), (unsigned)((n + 15) / 16));
  syrk_lower_naive<<<grid, block>>>(n, k, d_A, d_C);
  cudaMemcpy(C, d_C, c_bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_A);
  cudaFree(d_C);
}
