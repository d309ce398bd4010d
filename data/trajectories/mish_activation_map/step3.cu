#include <cuda_runtime.h>

__device__ __forceinline__ float mish_one(float v) {
  if (v > 20.0f) return v;
  float e = __expf(v);
  float m = e * (e + 2.0f);
  return v * __fdividef(m, m + 2.0f);
}

// Four elements per thread through float4 loads and stores; threads
// i < n % 4 also handle one trailing element.
__global__ void mish_kernel_vec4(int n, const float* __restrict__ x, float* __restrict__ y) {
  int n4 = n >> 2;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    float4 v = reinterpret_cast<const float4*>(x)[i];
    float4 r;
    r.x = mish_one(v.x);
    r.y = mish_one(v.y);
    r.z = mish_one(v.z);
    r.w = mish_one(v.w);
    reinterpret_cast<float4*>(y)[i] = r;
  }
  if (i < (n & 3)) {
    int j = (n4 << 2) + i;
    y[j] = mish_one(x[j]);
  }
}

void mishActivation(int n, const float* x, float* y) {
  if (n <= 0) return;
  size_t bytes = static_cast<size_t>(n) * sizeof(float);
  float *dx = nullptr, *dy = nullptr;
  cudaMalloc(&dx, bytes);
  cudaMalloc(&dy, bytes);
  cudaMemcpy(dx, x, bytes, cudaMemcpyHostToDevice);
  int block = 256;
  int n4 = n >> 2;
  int work = n4 > (n & 3) ? n4 : (n & 3);
  int grid = (work + block - 1) / block;
  mish_kernel_vec4<<<grid, block>>>(n, dx, dy);
  cudaMemcpy(y, dy, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
}
