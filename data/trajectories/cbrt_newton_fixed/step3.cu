#include <cuda_runtime.h>

__device__ __forceinline__ float cbrt_one(float xv) {
  const float third = 1.0f / 3.0f, two_thirds = 2.0f / 3.0f;
  float x3 = xv * third;
  float r = x3 + two_thirds;
  for (int k = 0; k < 8; ++k) {
    r = two_thirds * r + x3 / (r * r);
  }
  return r;
}

// Four elements per thread via float4 load and store; threads i < n % 4 also
// handle one trailing element.
__global__ void cbrt_kernel_vec4(int n, const float* __restrict__ x, float* __restrict__ y) {
  int n4 = n >> 2;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    float4 v = reinterpret_cast<const float4*>(x)[i];
    float4 r;
    r.x = cbrt_one(v.x);
    r.y = cbrt_one(v.y);
    r.z = cbrt_one(v.z);
    r.w = cbrt_one(v.w);
    reinterpret_cast<float4*>(y)[i] = r;
  }
  if (i < (n & 3)) {
    int j = (n4 << 2) + i;
    y[j] = cbrt_one(x[j]);
  }
}

void cubeRootNewton(int n, const float* x, float* y) {
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
  cbrt_kernel_vec4<<<grid, block>>>(n, dx, dy);
  cudaMemcpy(y, dy, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
}
