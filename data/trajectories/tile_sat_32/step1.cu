#include <cuda_runtime.h>

// Pass 1: one thread per 32-pixel row segment computes its running sums.
__global__ void sat_rows(int width, int height, int tiles_x, const float* img, float* out) {
  long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= (long long)height * tiles_x) return;
  int y = (int)(t / tiles_x), x0 = (int)(t % tiles_x) * 32;
  int x1 = min(width, x0 + 32);
  float run = 0.0f;
  for (int x = x0; x < x1; ++x) {
    run += img[(size_t)y * width + x];
    out[(size_t)y * width + x] = run;
  }
}

// Pass 2: one thread per 32-pixel column segment accumulates down the tile.
__global__ void sat_cols(int width, int height, int tiles_y, float* out) {
  long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= (long long)width * tiles_y) return;
  int x = (int)(t % width), y0 = (int)(t / width) * 32;
  int y1 = min(height, y0 + 32);
  float run = 0.0f;
  for (int y = y0; y < y1; ++y) {
    run += out[(size_t)y * width + x];
    out[(size_t)y * width + x] = run;
  }
}

void tile_sat32(int width, int height, const float* img, float* out) {
  if (width <= 0 || height <= 0) return;
  size_t bytes = (size_t)width * height * sizeof(float);
  float *d_img = nullptr, *d_out = nullptr;
  cudaMalloc(&d_img, bytes);
  cudaMalloc(&d_out, bytes);
  cudaMemcpy(d_img, img, bytes, cudaMemcpyHostToDevice);
  int tiles_x = (width + 31) / 32, tiles_y = (height + 31) / 32;
  long long row_segments = (long long)height * tiles_x, col_segments = (long long)width * tiles_y;
  sat_rows<<<(unsigned)((row_segments + 255) / 256), 256>>>(width, height, tiles_x, d_img, d_out);
  sat_cols<<<(unsigned)((col_segments + 255) / 256), 256>>>(width, height, tiles_y, d_out);
  cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_img);
  cudaFree(d_out);
}
