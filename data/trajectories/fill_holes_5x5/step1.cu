#include <cuda_runtime.h>
#include <cstdint>

// Pass 1: one thread per pixel accumulates both weighted sums of its window.
__global__ void holes_sums(int w, int h, const float* img, const uint8_t* valid, const float* weights, float* num,
                           float* den) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float n = 0.0f, d = 0.0f;
  for (int dy = -2; dy <= 2; ++dy) {
    int yy = min(max(y + dy, 0), h - 1);
    for (int dx = -2; dx <= 2; ++dx) {
      int xx = min(max(x + dx, 0), w - 1);
      if (valid[(size_t)yy * w + xx]) {
        float wt = weights[(dy + 2) * 5 + dx + 2];
        n += wt * img[(size_t)yy * w + xx];
        d += wt;
      }
    }
  }
  num[(size_t)y * w + x] = n;
  den[(size_t)y * w + x] = d;
}

// Pass 2: one thread per pixel keeps it or takes the normalised sum.
__global__ void holes_combine(long long pixels, const float* img, const uint8_t* valid, const float* num,
                              const float* den, float* out) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= pixels) return;
  out[i] = valid[i] ? img[i] : (den[i] > 0.0f ? num[i] / den[i] : 0.0f);
}

void fill_holes_5x5(int w, int h, const float* img, const uint8_t* valid, const float* weights, float* out) {
  if (w <= 0 || h <= 0) return;
  size_t pixels = (size_t)w * h;
  float *d_img = nullptr, *d_out = nullptr;
  uint8_t* d_valid = nullptr;
  cudaMalloc(&d_img, pixels * sizeof(float));
  cudaMalloc(&d_valid, pixels);
  cudaMalloc(&d_out, pixels * sizeof(float));
  cudaMemcpy(d_img, img, pixels * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_valid, valid, pixels, cudaMemcpyHostToDevice);
  float *d_w = nullptr, *d_num = nullptr, *d_den = nullptr;
  cudaMalloc(&d_w, 25 * sizeof(float));
  cudaMalloc(&d_num, pixels * sizeof(float));
  cudaMalloc(&d_den, pixels * sizeof(float));
  cudaMemcpy(d_w, weights, 25 * sizeof(float), cudaMemcpyHostToDevice);
  dim3 block(32, 8);
  dim3 grid((w + 31) / 32, (h + 7) / 8);
  holes_sums<<<grid, block>>>(w, h, d_img, d_valid, d_w, d_num, d_den);
  holes_combine<<<(unsigned)((pixels + 255) / 256), 256>>>((long long)pixels, d_img, d_valid, d_num, d_den, d_out);
  cudaFree(d_w);
  cudaFree(d_num);
  cudaFree(d_den);
  cudaMemcpy(out, d_out, pixels * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_img);
  cudaFree(d_valid);
  cudaFree(d_out);
}
