#include <cuda_runtime.h>
#include <cstddef>

// One thread per output: A[i][j] is read along the row (coalesced across the
// warp), but A[j][i] is read down a column, n floats apart per thread.
__global__ void sym_naive(int n, const float* A, float* S) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= n || j >= n) return;
  S[(size_t)i * n + j] = 0.5f * (A[(size_t)i * n + j] + A[(size_t)j * n + i]);
}

void symmetric_part(int n, const float* A, float* S) {
  if (n <= 0) return;
  size_t bytes = (size_t)n * n * sizeof(float);
  float *d_A, *d_S;
  cudaMalloc(&d_A, bytes);
  cudaMalloc(&d_S, bytes);
  cudaMemcpy(d_A, A, bytes, cudaMemcpyHostToDevice);
  dim3 block(32, 8);
  dim3 grid((n + 31) / 32, (n + 7) / 8);
  sym_naive<<<grid, block>>>(n, d_A, d_S);
  cudaMemcpy(S, d_S, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_A);
  cudaFree(d_S);
}
