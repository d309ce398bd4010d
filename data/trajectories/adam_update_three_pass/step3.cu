#include <cuda_runtime.h>
#include <cmath>

// All three sweeps fused per element: the new m and v stay in registers for
// the parameter update, so grad is read once (not twice) and m and v are not
// re-read after being written; two launches disappear.
__device__ __forceinline__ void adam_one(float g, float& p, float& m, float& v, float lr,
                                         float beta1, float beta2, float c1, float c2,
                                         float eps) {
  m = beta1 * m + (1.0f - beta1) * g;
  v = beta2 * v + (1.0f - beta2) * g * g;
  float mhat = m / c1;
  float vhat = v / c2;
  p = p - lr * mhat / (sqrtf(vhat) + eps);
}

__global__ void adam_fused_vec4(int n, const float* __restrict__ grad, float lr, float beta1,
                                float beta2, float c1, float c2, float eps,
                                float* __restrict__ param, float* __restrict__ m,
                                float* __restrict__ v) {
  int n4 = n >> 2;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    float4 g = reinterpret_cast<const float4*>(grad)[i];
    float4 p = reinterpret_cast<float4*>(param)[i];
    float4 a = reinterpret_cast<float4*>(m)[i];
    float4 b = reinterpret_cast<float4*>(v)[i];
    adam_one(g.x, p.x, a.x, b.x, lr, beta1, beta2, c1, c2, eps);
    adam_one(g.y, p.y, a.y, b.y, lr, beta1, beta2, c1, c2, eps);
    adam_one(g.z, p.z, a.z, b.z, lr, beta1, beta2, c1, c2, eps);
    adam_one(g.w, p.w, a.w, b.w, lr, beta1, beta2, c1, c2, eps);
    reinterpret_cast<float4*>(param)[i] = p;
    reinterpret_cast<float4*>(m)[i] = a;
    reinterpret_cast<float4*>(v)[i] = b;
  }
  if (i < (n & 3)) {
    int j = (n4 << 2) + i;
    float p = param[j], a = m[j], b = v[j];
    adam_one(grad[j], p, a, b, lr, beta1, beta2, c1, c2, eps);
    param[j] = p;
    m[j] = a;
    v[j] = b;
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
  adam_fused_vec4<<<grid, block>>>(n, dg, lr, beta1, beta2, c1, c2, eps, dp, dm, dv);
  cudaMemcpy(param, dp, bytes, cudaMemcpyDeviceToHost);
  cudaMemcpy(m, dm, bytes, cudaMemcpyDeviceToHost);
  cudaMemcpy(v, dv, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dg);
  cudaFree(dp);
  cudaFree(dm);
  cudaFree(dv);
}
