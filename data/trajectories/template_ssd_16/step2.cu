#include <cuda_runtime.h>

// The template is read by every thread at the same index in the same
// iteration: a uniform address, which the constant cache broadcasts to the warp.
__constant__ float c_tmpl[16];

__global__ void ssd_const(int positions, const float* __restrict__ x, float* __restrict__ score) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= positions) return;
  float s = 0.0f;
  for (int k = 0; k < 16; ++k) {
    float d = x[i + k] - c_tmpl[k];
    s += d * d;
  }
  score[i] = s;
}

void template_ssd16(int n, const float* x, const float* tmpl, float* score) {
  int positions = n - 15;
  if (positions <= 0) return;
  float *d_x = nullptr, *d_s = nullptr;
  cudaMalloc(&d_x, (size_t)n * sizeof(float));
  cudaMalloc(&d_s, (size_t)positions * sizeof(float));
  cudaMemcpy(d_x, x, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpyToSymbol(c_tmpl, tmpl, 16 * sizeof(float));
  int threads = 256;
  ssd_const<<<(positions + threads - 1) / threads, threads>>>(positions, d_x, d_s);
  cudaMemcpy(score, d_s, (size_t)positions * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_x);
  cudaFree(d_s);
}
