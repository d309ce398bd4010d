#include <cuda_runtime.h>

// r - (r^3 - x) / (3 r^2) == (2/3) r + (x/3) / r^2. With x/3 hoisted out of the
// loop each iteration is one multiply, one division and one FMA instead of
// four multiplies, a subtraction, a division and another subtraction; the
// starting guess 1 + (x - 1)/3 becomes the FMA x * (1/3) + 2/3.
__global__ void cbrt_kernel(int n, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const float third = 1.0f / 3.0f, two_thirds = 2.0f / 3.0f;
    float x3 = x[i] * third;
    float r = x3 + two_thirds;
    for (int k = 0; k < 8; ++k) {
      r = two_thirds * r + x3 / (r * r);
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
