#include <cuda_runtime.h>
#include <cmath>

__device__ __forceinline__ float adam_m1(float m, float g, float b1) {
  return b1 * m + (1.0f - b1) * g;
}
__device__ __forceinline__ float adam_v1(float v, float g, float b2) {
  return b2 * v + (1.0f - b2) * g * g;
}
__device__ __forceinline__ float adam_p1(float p, float m, float v, float lr, float c1,
                                         float c2, float eps) {
  float mhat = m / c1;
  float vhat = v / c2;
  return p - lr * mhat / (sqrtf(vhat) + eps);
}

// Each sweep now moves four elements per float4 instruction. Thread i handles
// float4 number i; threads i < n % 4 also handle one trailing element.
__global__ void adam_m_vec4(int n, const float* __restrict__ grad, float beta1,
                            float* __restrict__ m) {
  int n4 = n >> 2;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    float4 g = reinterpret_cast<const float4*>(grad)[i];
    float4 a = reinterpret_cast<float4*>(m)[i];
    a.x = adam_m1(a.x, g.x, beta1);
    a.y = adam_m1(a.y, g.y, beta1);
    a.z = adam_m1(a.z, g.z, beta1);
    a.w = adam_m1(a.w, g.w, beta1);
    reinterpret_cast<float4*>(m)[i] = a;
  }
  if (i < (n & 3)) {
    int j = (n4 << 2) + i;
    m[j] = adam_m1(m[j], grad[j], beta1);
  }
}

__global__ void adam_v_vec4(int n, const float* __restrict__ grad, float beta2,
                            float* __restrict__ v) {
  int n4 = n >> 2;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    float4 g = reinterpret_cast<const float4*>(grad)[i];
    float4 a = reinterpret_cast<float4*>(v)[i];
    a.x = adam_v1(a.x, g.x, beta2);
    a.y = adam_v1(a.y, g.y, beta2);
    a.z = adam_v1(a.z, g.z, beta2);
    a.w = adam_v1(a.w, g.w, beta2);
    reinterpret_cast<float4*>(v)[i] = a;
  }
  if (i < (n & 3)) {
    int j = (n4 << 2) + i;
    v[j] = adam_v1(v[j], grad[j], beta2);
  }
}

__global__ void adam_p_vec4(int n, const float* __restrict__ m, const float* __restrict__ v,
                            float lr, float c1, float c2, float eps,
                            float* __restrict__ param) {
  int n4 = n >> 2;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    float4 a = reinterpret_cast<const float4*>(m)[i];
    float4 b = reinterpret_cast<const float4*>(v)[i];
    float4 p = reinterpret_cast<float4*>(param)[i];
    p.x = adam_p1(p.x, a.x, b.x, lr, c1, c2, eps);
    p.y = adam_p1(p.y, a.y, b.y, lr, c1, c2, eps);
    p.z = adam_p1(p.z, a.z, b.z, lr, c1, c2, eps);
    p.w = adam_p1(p.w, a.w, b.w, lr, c1, c2, eps);
    reinterpret_cast<float4*>(param)[i] = p;
  }
  if (i < (n & 3)) {
    int j = (n4 << 2) + i;
    param[j] = adam_p1(param[j], m[j], v[j], lr, c1, c2, eps);
  }
}

void adamUpdate(int n, const float* grad, float lr, float beta1, float beta2, int step,
                float* param, float* m, float* v) {
  if (n <= 0) return;
  const float eps = 1e-8f;
  float c1 = 1.0f - std::pow(beta1, static_cast<float>(step));
  float c2 = 1.0f - std::pow(beta2, static_cast<float>(step));
  size_t bytes = static_cast<size_t>(n) * sizeof(float);
  float *dg = nullptr, *dp = nullptr, *dm = nullptr, *dv = nullptr;
  cudaMalloc(&dg, bytes);
  cudaMalloc(&dp, bytes);
  cudaMalloc(&dm, bytes);
  cudaMalloc(&dv, bytes);
  cudaMemcpy(dg, grad, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dp, param, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dm, m, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dv, v, bytes, cudaMemcpyHostToDevice);
  int block = 256;
  int n4 = n >> 2;
  int work = n4 > (n & 3) ? n4 : (n & 3);
  int grid = (work + block - 1) / block;
  adam_m_vec4<<<grid, block>>>(n, dg, beta1, dm);
  adam_v_vec4<<<grid, block>>>(n, dg, beta2, dv);
  adam_p_vec4<<<grid, block>>>(n, dm, dv, lr, c1, c2, eps, dp);
  cudaMemcpy(param, dp, bytes, cudaMemcpyDeviceToHost);
  cudaMemcpy(m, dm, bytes, cudaMemcpyDeviceToHost);
  cudaMemcpy(v, dv, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dg);
  cudaFree(dp);
  cudaFree(dm);
  cudaFree(dv);
}
