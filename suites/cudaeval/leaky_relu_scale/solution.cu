#include <cuda_runtime.h>

__device__ __forceinline__ float leaky_scale(float v, float scale, float alpha) {
  return scale * (v > 0.0f ? v : alpha * v);
}

// Step 1 (thread_mapping): one element per thread slot.
// Step 2 (vectorized_memory_access): each thread moves a float4 (16 bytes) per
// load/store; the n % 4 tail is handled by scalar code. cudaMalloc returns
// 256-byte aligned pointers, so the float4 views are aligned.
__global__ void leaky_relu_scale_vec4(int n4, const float4* __restrict__ x, float4* __restrict__ y, float scale,
                                      float alpha) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n4) return;
  float4 v = x[i];
  float4 r;
  r.x = leaky_scale(v.x, scale, alpha);
  r.y = leaky_scale(v.y, scale, alpha);
  r.z = leaky_scale(v.z, scale, alpha);
  r.w = leaky_scale(v.w, scale, alpha);
  y[i] = r;
}

__global__ void leaky_relu_scale_tail(int start, int n, const float* __restrict__ x, float* __restrict__ y,
                                      float scale, float alpha) {
  int i = start + blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = leaky_scale(x[i], scale, alpha);
}

void leakyReluScale(int n, float scale, float alpha, const float* x, float* y) {
  if (n <= 0) return;
  size_t bytes = static_cast<size_t>(n) * sizeof(float);
  float *dx = nullptr, *dy = nullptr;
  cudaMalloc(&dx, bytes);
  cudaMalloc(&dy, bytes);
  cudaMemcpy(dx, x, bytes, cudaMemcpyHostToDevice);
  const int block = 256;
  int n4 = n / 4;
  if (n4 > 0) {
    int grid = (n4 + block - 1) / block;
    leaky_relu_scale_vec4<<<grid, block>>>(n4, reinterpret_cast<const float4*>(dx), reinterpret_cast<float4*>(dy),
                                           scale, alpha);
  }
  int start = n4 * 4;
  if (start < n) {
    leaky_relu_scale_tail<<<1, 32>>>(start, n, dx, dy, scale, alpha);
  }
  cudaMemcpy(y, dy, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
}
