#include <cuda_runtime.h>
#include <cstddef>

// Same float4 row kernel; the four threads of a matrix all read the same 64
// bytes of B, so the inputs are loaded through the read-only cache (__ldg on
// const __restrict__ pointers), where the repeated B reads hit.
__global__ void bmm4_row_vec_ldg(int batch, const float4* __restrict__ A, const float4* __restrict__ B,
                                 float4* __restrict__ C) {
  size_t r = (size_t)blockIdx.x * blockDim.x + threadIdx.x;  // global row index = float4 index
  if (r >= (size_t)batch * 4) return;
  size_t mbase = r & ~(size_t)3;  // first float4 of this matrix
  float4 a = __ldg(&A[r]);
  float4 b0 = __ldg(&B[mbase + 0]);
  float4 b1 = __ldg(&B[mbase + 1]);
  float4 b2 = __ldg(&B[mbase + 2]);
  float4 b3 = __ldg(&B[mbase + 3]);
  float4 c;
  c.x = a.x * b0.x;
  c.x += a.y * b1.x;
  c.x += a.z * b2.x;
  c.x += a.w * b3.x;
  c.y = a.x * b0.y;
  c.y += a.y * b1.y;
  c.y += a.z * b2.y;
  c.y += a.w * b3.y;
  c.z = a.x * b0.z;
  c.z += a.y * b1.z;
  c.z += a.z * b2.z;
  c.z += a.w * b3.z;
  c.w = a.x * b0.w;
  c.w += a.y * b1.w;
  c.w += a.z * b2.w;
  c.w += a.w * b3.w;
  C[r] = c;
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
  size_t nrows = (size_t)batch * 4;
  bmm4_row_vec_ldg<<<(unsigned)((nrows + block - 1) / block), block>>>(
      batch, reinterpret_cast<const float4*>(d_A), reinterpret_cast<const float4*>(d_B),
      reinterpret_cast<float4*>(d_C));
  cudaMemcpy(C, d_C, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_A);
  cudaFree(d_B);
  cudaFree(d_C);
}
