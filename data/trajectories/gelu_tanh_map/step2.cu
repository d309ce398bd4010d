#include <cuda_runtime.h>
#include <cmath>

__device__ __forceinline__ float gelu_one(float v) {
  const float k = 0.7978845608f;
  float u = k * (v + 0.044715f * v * v * v);
  return 0.5f * v * (1.0f + tanhf(u));
}

// Four elements per thread through float4 loads and stores; the n % 4 tail is
// handled by the first threads.
__global__ void gelu_kernel_vec4(int n, const float* __restrict__ x, float* __restrict__ y) {
  int n4 = n >> 2;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    float4 v = reinterpret_cast<const float4*>(x)[i];
    float4 r;
    r.x = gelu_one(v.x);
    r.y = gelu_one(v.y);
    r.z = gelu_one(v.z);
    r.w = gelu_one(v.w);
    reinterpret_cast<float4*>(y)[i] = r;
  }
  if (i < (n & 3)) {
    int t = (n4 << 2) + i;
    y[t] = gelu_one(x[t]);
  }
}

void geluTanhApprox(int n, const float* x, float* y) {
  if (n <= 0) return;
  size_t bytes = static_cast<size_t>(n) * sizeof(float);
  float *dx = nullptr, *dy = nullptr;
  cudaMalloc(&dx, bytes);
  cudaMalloc(&dy, bytes);
  cudaMemcpy(dx, x, bytes, cudaMemcpyHostToDevice);
  int block = 256;
  int work = (n >> 2) > 3 ? (n >> 2) : 3;
  int grid = (work + block - 1) / block;
  gelu_kernel_vec4<<<grid, block>>>(n, dx, dy);
  cudaMemcpy(y, dy, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
}
