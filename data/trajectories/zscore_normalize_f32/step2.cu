#include <cuda_runtime.h>
#include <math.h>

constexpr int kBlock = 256;

// Each block reduces its 256 values and squares with a shared-memory tree
// (halving strides, a barrier per level); thread 0 adds the two block sums.
__global__ void stats_kernel(int n, const float* x, double* acc) {
  __shared__ double s1[kBlock], s2[kBlock];
  int tid = threadIdx.x;
  int i = blockIdx.x * kBlock + tid;
  double v = i < n ? static_cast<double>(x[i]) : 0.0;
  s1[tid] = v;
  s2[tid] = v * v;
  __syncthreads();
  for (int stride = kBlock / 2; stride > 0; stride >>= 1) {
    if (tid < stride) {
      s1[tid] += s1[tid + stride];
      s2[tid] += s2[tid + stride];
    }
    __syncthreads();
  }
  if (tid == 0) {
    atomicAdd(&acc[0], s1[0]);
    atomicAdd(&acc[1], s2[0]);
  }
}

// Element-wise pass with the statistics passed in by the host.
__global__ void normalize_kernel(int n, const float* x, double mean, double inv, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = static_cast<float>((x[i] - mean) * inv);
}

void standardizeValues(int n, const float* x, float* out) {
  if (n <= 0) return;
  size_t bytes = static_cast<size_t>(n) * sizeof(float);
  float *dx = nullptr, *dout = nullptr;
  double* dacc = nullptr;
  cudaMalloc(&dx, bytes);
  cudaMalloc(&dout, bytes);
  cudaMalloc(&dacc, 2 * sizeof(double));
  cudaMemcpy(dx, x, bytes, cudaMemcpyHostToDevice);
  cudaMemset(dacc, 0, 2 * sizeof(double));
  int blocks = (n + kBlock - 1) / kBlock;
  stats_kernel<<<blocks, kBlock>>>(n, dx, dacc);
  double acc[2];
  cudaMemcpy(acc, dacc, 2 * sizeof(double), cudaMemcpyDeviceToHost);
  double mean = acc[0] / n;
  double var = acc[1] / n - mean * mean;
  double inv = var > 0.0 ? 1.0 / sqrt(var) : 0.0;
  normalize_kernel<<<blocks, kBlock>>>(n, dx, mean, inv, dout);
  cudaMemcpy(out, dout, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dout);
  cudaFree(dacc);
}
