#include <cuda_runtime.h>

// One kernel per serial pass, one thread per element.
__global__ void softsign_kernel(int n, const float* x, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = x[i] / (1.0f + fabsf(x[i]));
}

__global__ void affine_kernel(int n, float gamma, float beta, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = gamma * out[i] + beta;
}

__global__ void clamp_kernel(int n, float lo, float hi, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = fminf(fmaxf(out[i], lo), hi);
}

void softsignAffineClamp(int n, const float* x, float gamma, float beta, float lo, float hi,
                         float* out) {
  if (n <= 0) return;
  size_t bytes = static_cast<size_t>(n) * sizeof(float);
  float *dx = nullptr, *dout = nullptr;
  cudaMalloc(&dx, bytes);
  cudaMalloc(&dout, bytes);
  cudaMemcpy(dx, x, bytes, cudaMemcpyHostToDevice);
  int block = 256;
  int grid = (n + block - 1) / block;
  softsign_kernel<<<grid, block>>>(n, dx, dout);
  affine_kernel<<<grid, block>>>(n, gamma, beta, dout);
  clamp_kernel<<<grid, block>>>(n, lo, hi, dout);
  cudaMemcpy(out, dout, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dout);
}
