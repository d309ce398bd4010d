#include <cuda_runtime.h>
#include <cstddef>

// One thread per output element: the dot product of row i of X with column j
// of W, then bias and ReLU.
__global__ void linear_relu_naive(int m, int n, int k, const float* X, const float* W,
                                  const float* bias, float* Y) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= m || j >= n) return;
  float acc = 0.0f;
  for (int p = 0; p < k; ++p) acc += X[(size_t)i * k + p] * W[(size_t)p * n + j];
  float v = acc + bias[j];
  Y[(size_t)i * n + j] = v > 0.0f ? v : 0.0f;
}

void linear_relu_forward(int m, int n, int k, const float* X, const float* W, const float* bias,
                         float* Y) {
  if (m <= 0 || n <= 0) return;
  size_t bx = (size_t)m * k * sizeof(float), bw = (size_t)k * n * sizeof(float);
  size_t bb = (size_t)n * sizeof(float), by = (size_t)m * n * sizeof(float);
  float *d_X, *d_W, *d_b, *d_Y;
  cudaMalloc(&d_X, bx > 0 ? bx : sizeof(float));
  cudaMalloc(&d_W, bw > 0 ? bw : sizeof(float));
  cudaMalloc(&d_b, bb);
  cudaMalloc(&d_Y, by);
  cudaMemcpy(d_X, X, bx, cudaMemcpyHostToDevice);
  cudaMemcpy(d_W, W, bw, cudaMemcpyHostToDevice);
  cudaMemcpy(d_b, bias, bb, cudaMemcpyHostToDevice);
  dim3 block(16, 16);
  dim3 grid((n + 15) / 16, (m + 15) / 16);
  linear_relu_naive<<<grid, block>>>(m, n, k, d_X, d_W, d_b, d_Y);
  cudaMemcpy(Y, d_Y, by, cudaMemcpyDeviceToHost);
  cudaFree(d_X);
  cudaFree(d_W);
  cudaFree(d_b);
  cudaFree(d_Y);
}
