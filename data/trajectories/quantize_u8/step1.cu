#include <cuda_runtime.h>
#include <cstdint>

// Correctly rounded division and addition (no contraction, no reciprocal),
// then round-half-even and clamp: bit-identical to the serial code.
__device__ __forceinline__ uint8_t quantize_one(float x, float scale, float zero_point) {
  float v = rintf(__fadd_rn(__fdiv_rn(x, scale), zero_point));
  v = fminf(fmaxf(v, 0.0f), 255.0f);
  return static_cast<uint8_t>(v);
}

__global__ void quantize_kernel(int n, const float* x, float scale, float zero_point, uint8_t* q) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) q[i] = quantize_one(x[i], scale, zero_point);
}

void quantizeToBytes(int n, const float* x, float scale, float zero_point, uint8_t* q) {
  if (n <= 0) return;
  float* dx = nullptr;
  uint8_t* dq = nullptr;
  cudaMalloc(&dx, static_cast<size_t>(n) * sizeof(float));
  cudaMalloc(&dq, static_cast<size_t>(n));
  cudaMemcpy(dx, x, static_cast<size_t>(n) * sizeof(float), cudaMemcpyHostToDevice);
  int block = 256;
  int grid = (n + block - 1) / block;
  quantize_kernel<<<grid, block>>>(n, dx, scale, zero_point, dq);
  cudaMemcpy(q, dq, static_cast<size_t>(n), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dq);
}
