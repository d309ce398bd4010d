#include <cuda_runtime.h>

// One thread per series: it walks its samples and accumulates |x[t] - x[t-1]|.
__global__ void tv_thread(int series, int len, const float* x, float* tv) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= series) return;
  const float* samples = x + (long long)s * len;
  float acc = 0.0f;
  for (int t = 1; t < len; ++t) acc += fabsf(samples[t] - samples[t - 1]);
  tv[s] = acc;
}

void series_total_variation(int series, int len, const float* x, float* tv) {
  if (series <= 0) return;
  size_t total = (size_t)series * (size_t)(len > 0 ? len : 0);
  float *d_x = nullptr, *d_tv = nullptr;
  cudaMalloc(&d_x, (total > 0 ? total : 1) * sizeof(float));
  cudaMalloc(&d_tv, (size_t)series * sizeof(float));
  if (total > 0) cudaMemcpy(d_x, x, total * sizeof(float), cudaMemcpyHostToDevice);
  tv_thread<<<(series + 255) / 256, 256>>>(series, len, d_x, d_tv);
  cudaMemcpy(tv, d_tv, (size_t)series * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_x);
  cudaFree(d_tv);
}
