#include <cuda_runtime.h>

// 2-D launch: x threads walk a row and blockIdx.y walks the rows (grid-stride
// beyond 65535), so no division or modulo remains; dy * dy is computed once
// per row and only the column's part varies.
__global__ void vignette_rows(int width, int height, float cx, float cy, float inv_r2max, float k1, float k2,
                              const float* __restrict__ in, float* __restrict__ out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= width) return;
  float dx = x - cx;
  float col_term = dx * dx;
  for (int y = blockIdx.y; y < height; y += gridDim.y) {
    float dy = y - cy;
    float row_term = dy * dy;  // the same for the whole row
    float r2 = (col_term + row_term) * inv_r2max;
    size_t i = (size_t)y * width + x;
    out[i] = in[i] * (1.0f + k1 * r2 + k2 * r2 * r2);
  }
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
  dim3 grid((width + 255) / 256, height < 65535 ? height : 65535);
  vignette_rows<<<grid, 256>>>(width, height, cx, cy, inv_r2max, k1, k2, d_in, d_out);
  cudaMemcpy(out, d_out, total * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_in);
  cudaFree(d_out);
}
