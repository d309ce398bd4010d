#include <cuda_runtime.h>

// One thread per template position; template and signal both from global memory.
__global__ void ssd_naive(int positions, const float* x, const float* tmpl, float* score) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= positions) return;
  float s = 0.0f;
  for (int k = 0; k < 16; ++k) {
    float d = x[i + k] - tmpl[k];
    s += d * d;
  }
  score[i] = s;
}

void template_ssd16(int n, const float* x, const float* tmpl, float* score) {
  int positions = n - 15;
  if (positions <= 0) return;
  float *d_x = nullptr, *d_t = nullptr, *d_s = nullptr;
  cudaMalloc(&d_x, (size_t)n * sizeof(float));
  cudaMalloc(&d_t, 16 * sizeof(float));
  cudaMalloc(&d_s, (size_t)positions * sizeof(float));
  cudaMemcpy(d_x, x, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_t, tmpl, 16 * sizeof(float), cudaMemcpyHostToDevice);
  int threads = 256;
  ssd_naive<<<(positions + threads - 1) / threads, threads>>>(positions, d_x, d_t, d_s);
  cudaMemcpy(score, d_s, (size_t)positions * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_x);
  cudaFree(d_t);
  cudaFree(d_s);
}
