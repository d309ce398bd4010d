#include <cuda_runtime.h>

// One thread per element, running the serial Newton iteration unchanged.
__global__ void cbrt_kernel(int n, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float xv = x[i];
    float r = 1.0f + (xv - 1.0f) / 3.0f;
    for (int k = 0; k < 8; ++k) {
      r = r - (r * r * r - xv) / (3.0f * r * r);
    }
    y[i] = r;
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
  int grid = (n + block - 1) / block;
  cbrt_kernel<<<grid, block>>>(n, dx, dy);
  cudaMemcpy(y, dy, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
}
