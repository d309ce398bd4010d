#include <cuda_runtime.h>
#include <cmath>

// One kernel per serial sweep, one thread per element.
__global__ void adam_m_kernel(int n, const float* grad, float beta1, float* m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) m[i] = beta1 * m[i] + (1.0f - beta1) * grad[i];
}

__global__ void adam_v_kernel(int n, const float* grad, float beta2, float* v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = beta2 * v[i] + (1.0f - beta2) * grad[i] * grad[i];
}

__global__ void adam_p_kernel(int n, const float* m, const float* v, float lr, float c1,
                              float c2, float eps, float* param) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float mhat = m[i] / c1;
    float vhat = v[i] / c2;
    param[i] -= lr * mhat / (sqrtf(vhat) + eps);
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
  int grid = (n + block - 1) / block;
  adam_m_kernel<<<grid, block>>>(n, dg, beta1, dm);
  adam_v_kernel<<<grid, block>>>(n, dg, beta2, dv);
  adam_p_kernel<<<grid, block>>>(n, dm, dv, lr, c1, c2, eps, dp);
  cudaMemcpy(param, dp, bytes, cudaMemcpyDeviceToHost);
  cudaMemcpy(m, dm, bytes, cudaMemcpyDeviceToHost);
  cudaMemcpy(v, dv, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dg);
  cudaFree(dp);
  cudaFree(dm);
  cudaFree(dv);
}
