#include <cuda_runtime.h>
#include <cstddef>

#define TS 16

// 16 x 16 output tile per block; the k dimension is walked in 16-wide slices
// staged in shared memory, so each X and W element is read from DRAM once per
// block instead of once per thread that uses it.
__global__ void linear_relu_tiled(int m, int n, int k, const float* __restrict__ X,
                                  const float* __restrict__ W, const float* __restrict__ bias,
                                  float* __restrict__ Y) {
  __shared__ float As[TS][TS];
  __shared__ float Bs[TS][TS];
  int tx = threadIdx.x, ty = threadIdx.y;
  int i = blockIdx.y * TS + ty;
  int j = blockIdx.x * TS + tx;
  float acc = 0.0f;
  for (int t = 0; t < k; t += TS) {
    int pa = t + tx, pb = t + ty;
    As[ty][tx] = (i < m && pa < k) ? X[(size_t)i * k + pa] : 0.0f;
    Bs[ty][tx] = (pb < k && j < n) ? W[(size_t)pb * n + j] : 0.0f;
    __syncthreads();
    for (int q = 0; q < TS; ++q) acc += As[ty][q] * Bs[q][tx];
    __syncthreads();
  }
  if (i < m && j < n) {
    float v = acc + bias[j];
    Y[(size_t)i * n + j] = v > 0.0f ? v : 0.0f;
  }
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
  dim3 block(TS, TS);
  dim3 grid((n + TS - 1) / TS, (m + TS - 1) / TS);
  linear_relu_tiled<<<grid, block>>>(m, n, k, d_X, d_W, d_b, d_Y);
  cudaMemcpy(Y, d_Y, by, cudaMemcpyDeviceToHost);
  cudaFree(d_X);
  cudaFree(d_W);
  cudaFree(d_b);
  cudaFree(d_Y);
}
