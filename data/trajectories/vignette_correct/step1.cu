#include <cuda_runtime.h>

// One thread per pixel over the flattened image; the pixel's coordinates come
// from a division and a modulo by the width.
__global__ void vignette_flat(long long total, int width, float cx, float cy, float inv_r2max, float k1, float k2,
                              const float* in, float* out) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= total) return;
  int y = (int)(i / width), x = (int)(i % width);
  float dx = x - cx, dy = y - cy;
  float r2 = (dx * dx + dy * dy) * inv_r2max;
  out[i] = in[i] * (1.0f + k1 * r2 + k2 * r2 * r2);
}

void vignette_correct(int width, int height, float k1, float k2, const float* in, float* out) {
  if (width <= 0 || height <= 0) return;
  size_t total = (size_t)width * height;
  float *d_in = nullptr, *d_out = nullptr;
  cudaMalloc(&d_in, total * sizeof(float));
  cudaMalloc(&d_out, total * sizeof(float));
  cudaMemcpy(d_in, in, total * sizeof(float), cudaMemcpyHostToDevice);
  float cx = 0.5f * (width - 1), cy = 0.5f * (height - 1);
  float inv_r2max = 1.0f / (cx * cx + cy * cy + 1.0f);
  vignette_flat<<<(unsigned)((total + 255) / 256), 256>>>((long long)total, width, cx, cy, inv_r2max, k1, k2, d_in,
                                                          d_out);
  cudaMemcpy(out, d_out, total * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_in);
  cudaFree(d_out);
}
