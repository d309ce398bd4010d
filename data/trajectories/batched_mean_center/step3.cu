#include <cuda_runtime.h>

__global__ void segment_mean_kernel(int b, int l, const float* __restrict__ x, float* __restrict__ mean) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= b) return;
  const float* xs = x + (size_t)s * l;
  float sum = 0.0f;
  for (int j = 0; j < l; ++j) sum += xs[j];
  mean[s] = sum / (float)l;
}

// Phase 2 with 16-byte accesses: thread t handles flat elements 4t .. 4t+3
// of the whole b*l array (the buffer is 256-byte aligned, so float4 t is
// aligned whatever l is); each of the four looks up its own segment mean.
// The last total % 4 elements are done by the first threads.
__global__ void subtract_kernel_vec4(long long total, int l, const float* __restrict__ x,
                                     const float* __restrict__ mean, float* __restrict__ y) {
  long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  long long n4 = total >> 2;
  if (t < n4) {
    long long i = t << 2;
    float4 v = reinterpret_cast<const float4*>(x)[t];
    float4 r;
    r.x = v.x - mean[i / l];
    r.y = v.y - mean[(i + 1) / l];
    r.z = v.z - mean[(i + 2) / l];
    r.w = v.w - mean[(i + 3) / l];
    reinterpret_cast<float4*>(y)[t] = r;
  }
  if (t < (total & 3)) {
    long long i = (n4 << 2) + t;
    y[i] = x[i] - mean[i / l];
  }
}

void batched_mean_center(int b, int l, const float* x, float* y) {
  if (b <= 0 || l <= 0) return;
  long long total = (long long)b * l;
  size_t bytes = (size_t)total * sizeof(float);
  float *dx = nullptr, *dy = nullptr, *dmean = nullptr;
  cudaMalloc(&dx, bytes);
  cudaMalloc(&dy, bytes);
  cudaMalloc(&dmean, (size_t)b * sizeof(float));
  cudaMemcpy(dx, x, bytes, cudaMemcpyHostToDevice);
  segment_mean_kernel<<<(b + 127) / 128, 128>>>(b, l, dx, dmean);
  int block = 256;
  long long work = (total >> 2) > 3 ? (total >> 2) : 3;  // at least 3 threads for the tail
  subtract_kernel_vec4<<<(unsigned)((work + block - 1) / block), block>>>(total, l, dx, dmean, dy);
  cudaMemcpy(y, dy, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
  cudaFree(dmean);
}
