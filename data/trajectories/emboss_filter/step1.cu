#include <cuda_runtime.h>
#include <cstdint>

// One thread per pixel with clamped neighbour reads; weights as literals.
__global__ void emboss_naive(const uint8_t* in, uint8_t* out, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  const int w[3][3] = {{-2, -1, 0}, {-1, 1, 1}, {0, 1, 2}};
  int acc = 128;
  for (int dy = -1; dy <= 1; ++dy) {
    int yy = min(max(y + dy, 0), height - 1);
    for (int dx = -1; dx <= 1; ++dx) {
      int xx = min(max(x + dx, 0), width - 1);
      acc += w[dy + 1][dx + 1] * in[yy * width + xx];
    }
  }
  out[y * width + x] = (uint8_t)min(max(acc, 0), 255);
}

void emboss_u8(const uint8_t* in, uint8_t* out, int width, int height) {
  if (width <= 0 || height <= 0) return;
  size_t bytes = (size_t)width * height;
  uint8_t *d_in = nullptr, *d_out = nullptr;
  cudaMalloc(&d_in, bytes);
  cudaMalloc(&d_out, bytes);
  cudaMemcpy(d_in, in, bytes, cudaMemcpyHostToDevice);
  dim3 block(32, 8);
  dim3 grid((width + 31) / 32, (height + 7) / 8);
  emboss_naive<<<grid, block>>>(d_in, d_out, width, height);
  cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_in);
  cudaFree(d_out);
}
