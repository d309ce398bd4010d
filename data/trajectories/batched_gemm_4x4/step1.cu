#include <cuda_runtime.h>
#include <cstddef>

// One thread per output element: thread e computes entry (i, j) of matrix b,
// where b = e / 16 and (i, j) come from e % 16.
__global__ void bmm4_element(int batch, const float* A, const float* B, float* C) {
  size_t e = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= (size_t)batch * 16) return;
  size_t base = e & ~(size_t)15;
  int i = (int)((e >> 2) & 3);
  int j = (int)(e & 3);
  float s = 0.0f;
  for (int p = 0; p < 4; ++p) s += A[base + i * 4 + p] * B[base + p * 4 + j];
  C[e] = s;
}

void batched_matmul_4x4(int batch, const float* A, const float* B, float* C) {
  if (batch <= 0) return;
  size_t elems = (size_t)batch * 16;
  size_t bytes = elems * sizeof(float);
  float *d_A = nullptr, *d_B = nullptr, *d_C = nullptr;
  cudaMalloc(&d_A, bytes);
  cudaMalloc(&d_B, bytes);
  cudaMalloc(&d_C, bytes);
  cudaMemcpy(d_A, A, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_B, B, bytes, cudaMemcpyHostToDevice);
  int block = 256;
  bmm4_element<<<(unsigned)((elems + block - 1) / block), block>>>(batch, d_A, d_B, d_C);
  cudaMemcpy(C, d_C, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_A);
  cudaFree(d_B);
  cudaFree(d_C);
}
