#include <cuda_runtime.h>

// One thread per output: 49 clamped loads from global memory.
__global__ void erode7_naive(int w, int h, const float* img, float* out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float m = img[(size_t)y * w + x];
  for (int dy = -3; dy <= 3; ++dy) {
    int yy = min(max(y + dy, 0), h - 1);
    for (int dx = -3; dx <= 3; ++dx) {
      int xx = min(max(x + dx, 0), w - 1);
      m = fminf(m, img[(size_t)yy * w + xx]);
    }
  }
  out[(size_t)y * w + x] = m;
}

void grey_erode7(int w, int h, const float* img, float* out) {
  if (w <= 0 || h <= 0) return;
  size_t bytes = (size_t)w * h * sizeof(float);
  float *d_img = nullptr, *d_out = nullptr;
  cudaMalloc(&d_img, bytes);
  cudaMalloc(&d_out, bytes);
  cudaMemcpy(d_img, img, bytes, cudaMemcpyHostToDevice);
  dim3 block(32, 8);
  dim3 grid((w + 31) / 32, (h + 7) / 8);
  erode7_naive<<<grid, block>>>(w, h, d_img, d_out);
  cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_img);
  cudaFree(d_out);
}
