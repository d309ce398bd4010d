#include <cuda_runtime.h>

constexpr int kBlock = 256;

// Pass 1: each block sums its 256 elements with a shared-memory tree
// (halving strides, barrier per level); thread 0 adds the block sum.
__global__ void sum_kernel(int n, const double* x, double* sum) {
  __shared__ double s[kBlock];
  int tid = threadIdx.x;
  int i = blockIdx.x * kBlock + tid;
  s[tid] = i < n ? x[i] : 0.0;
  __syncthreads();
  for (int stride = kBlock / 2; stride > 0; stride >>= 1) {
    if (tid < stride) s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0) atomicAdd(sum, s[0]);
}

// Pass 2: the same tree on both moment sums at once.
__global__ void moments_kernel(int n, const double* x, double mean, double* acc) {
  __shared__ double s2[kBlock], s4[kBlock];
  int tid = threadIdx.x;
  int i = blockIdx.x * kBlock + tid;
  double d2 = 0.0;
  if (i < n) {
    double d = x[i] - mean;
    d2 = d * d;
  }
  s2[tid] = d2;
  s4[tid] = d2 * d2;
  __syncthreads();
  for (int stride = kBlock / 2; stride > 0; stride >>= 1) {
    if (tid < stride) {
      s2[tid] += s2[tid + stride];
      s4[tid] += s4[tid + stride];
    }
    __syncthreads();
  }
  if (tid == 0) {
    atomicAdd(&acc[0], s2[0]);
    atomicAdd(&acc[1], s4[0]);
  }
}

double sampleKurtosis(int n, const double* x) {
  if (n <= 0) return 0.0;
  size_t bytes = static_cast<size_t>(n) * sizeof(double);
  double *dx = nullptr, *dsum = nullptr, *dacc = nullptr;
  cudaMalloc(&dx, bytes);
  cudaMalloc(&dsum, sizeof(double));
  cudaMalloc(&dacc, 2 * sizeof(double));
  cudaMemcpy(dx, x, bytes, cudaMemcpyHostToDevice);
  cudaMemset(dsum, 0, sizeof(double));
  cudaMemset(dacc, 0, 2 * sizeof(double));
  int blocks = (n + kBlock - 1) / kBlock;
  sum_kernel<<<blocks, kBlock>>>(n, dx, dsum);
  double sum = 0.0;
  cudaMemcpy(&sum, dsum, sizeof(double), cudaMemcpyDeviceToHost);
  double mean = sum / n;
  moments_kernel<<<blocks, kBlock>>>(n, dx, mean, dacc);
  double acc[2] = {0.0, 0.0};
  cudaMemcpy(acc, dacc, 2 * sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dsum);
  cudaFree(dacc);
  double m2 = acc[0] / n;
  double m4 = acc[1] / n;
  if (m2 <= 0.0) return 0.0;
  return m4 / (m2 * m2);
}
