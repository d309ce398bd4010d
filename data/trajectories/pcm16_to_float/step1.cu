#include <cuda_runtime.h>
#include <cstdint>

// One thread per sample.
__global__ void pcm_convert(int n, const int16_t* pcm, float scale, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = fminf(fmaxf(scale * pcm[i], -1.0f), 1.0f);
}

void pcm16_to_float(int n, const int16_t* pcm, float gain, float* out) {
  if (n <= 0) return;
  int16_t* d_pcm = nullptr;
  float* d_out = nullptr;
  cudaMalloc(&d_pcm, (size_t)n * sizeof(int16_t));
  cudaMalloc(&d_out, (size_t)n * sizeof(float));
  cudaMemcpy(d_pcm, pcm, (size_t)n * sizeof(int16_t), cudaMemcpyHostToDevice);
  pcm_convert<<<(n + 255) / 256, 256>>>(n, d_pcm, gain / 32768.0f, d_out);
  cudaMemcpy(out, d_out, (size_t)n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_pcm);
  cudaFree(d_out);
}
