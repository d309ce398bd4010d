#include <cuda_runtime.h>

// One thread per output coefficient (u, v) of a block: it transforms the
// block's eight rows at column u and combines them with row v of C, reading
// everything from global memory.
__global__ void dct_per_coefficient(int width, int height, const float* C, const float* img, float* out) {
  int X = blockIdx.x * blockDim.x + threadIdx.x;
  int Y = blockIdx.y * blockDim.y + threadIdx.y;
  if (X >= width || Y >= height) return;
  int u = X % 8, v = Y % 8;
  int x0 = X - u, y0 = Y - v;
  float s = 0.0f;
  for (int y = 0; y < 8; ++y) {
    float row = 0.0f;
    for (int x = 0; x < 8; ++x) row += C[u * 8 + x] * img[(size_t)(y0 + y) * width + x0 + x];
    s += C[v * 8 + y] * row;
  }
  out[(size_t)Y * width + X] = s;
}

void block_dct8(int bw, int bh, const float* C, const float* img, float* out) {
  if (bw <= 0 || bh <= 0) return;
  int width = 8 * bw, height = 8 * bh;
  size_t bytes = (size_t)width * height * sizeof(float);
  float *d_C = nullptr, *d_img = nullptr, *d_out = nullptr;
  cudaMalloc(&d_C, 64 * sizeof(float));
  cudaMalloc(&d_img, bytes);
  cudaMalloc(&d_out, bytes);
  cudaMemcpy(d_C, C, 64 * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_img, img, bytes, cudaMemcpyHostToDevice);
  dim3 block(32, 8);
  dim3 grid((width + 31) / 32, height / 8);
  dct_per_coefficient<<<grid, block>>>(width, height, d_C, d_img, d_out);
  cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_C);
  cudaFree(d_img);
  cudaFree(d_out);
}
