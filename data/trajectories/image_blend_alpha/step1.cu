#include <cuda_runtime.h>
#include <cstdint>

// One thread per pixel.
__global__ void blend_naive(int n, const uint8_t* fg, const uint8_t* bg, const uint8_t* alpha, uint8_t* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned a = alpha[i];
  unsigned v = fg[i] * a + bg[i] * (255u - a) + 127u;
  out[i] = (uint8_t)(v / 255u);
}

void alpha_blend_u8(int n, const uint8_t* fg, const uint8_t* bg, const uint8_t* alpha, uint8_t* out) {
  if (n <= 0) return;
  uint8_t *d_fg, *d_bg, *d_a, *d_out;
  cudaMalloc(&d_fg, (size_t)n);
  cudaMalloc(&d_bg, (size_t)n);
  cudaMalloc(&d_a, (size_t)n);
  cudaMalloc(&d_out, (size_t)n);
  cudaMemcpy(d_fg, fg, (size_t)n, cudaMemcpyHostToDevice);
  cudaMemcpy(d_bg, bg, (size_t)n, cudaMemcpyHostToDevice);
  cudaMemcpy(d_a, alpha, (size_t)n, cudaMemcpyHostToDevice);
  blend_naive<<<(n + 255) / 256, 256>>>(n, d_fg, d_bg, d_a, d_out);
  cudaMemcpy(out, d_out, (size_t)n, cudaMemcpyDeviceToHost);
  cudaFree(d_fg);
  cudaFree(d_bg);
  cudaFree(d_a);
  cudaFree(d_out);
}
