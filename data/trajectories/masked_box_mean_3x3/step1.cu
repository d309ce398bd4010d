#include <cuda_runtime.h>
#include <cstdint>

// One thread per cell, the serial 3x3 loop (same visiting order, so the sum
// is bit-identical).
__global__ void box_mean(int h, int w, const float* v, const uint8_t* valid, float* out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float s = 0.0f;
  int c = 0;
  for (int dy = -1; dy <= 1; ++dy) {
    for (int dx = -1; dx <= 1; ++dx) {
      int yy = y + dy, xx = x + dx;
      if (yy < 0 || yy >= h || xx < 0 || xx >= w) continue;
      size_t k = (size_t)yy * w + xx;
      if (valid[k]) {
        s += v[k];
        ++c;
      }
    }
  }
  out[(size_t)y * w + x] = c > 0 ? s / (float)c : 0.0f;
}

void masked_box_mean_3x3(int h, int w, const float* v, const uint8_t* valid, float* out) {
  if (h <= 0 || w <= 0) return;
  size_t cells = (size_t)h * w;
  float *dv = nullptr, *dout = nullptr;
  uint8_t* dm = nullptr;
  cudaMalloc(&dv, cells * sizeof(float));
  cudaMalloc(&dm, cells);
  cudaMalloc(&dout, cells * sizeof(float));
  cudaMemcpy(dv, v, cells * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dm, valid, cells, cudaMemcpyHostToDevice);
  dim3 block(32, 8);
  dim3 grid((w + 31) / 32, (h + 7) / 8);
  box_mean<<<grid, block>>>(h, w, dv, dm, dout);
  cudaMemcpy(out, dout, cells * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(dv);
  cudaFree(dm);
  cudaFree(dout);
}
