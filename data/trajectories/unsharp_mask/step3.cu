#include <cuda_runtime.h>
#include <cstddef>

static const float kBinomialHost[9] = {1.0f, 2.0f, 1.0f, 2.0f, 4.0f, 2.0f, 1.0f, 2.0f, 1.0f};

// The nine weights are read by every thread in the same order: constant memory
// broadcasts each one to the whole warp from the constant cache.
__constant__ float c_w[9];

__global__ void unsharp_const(int width, int height, float amount, const float* __restrict__ img, float* __restrict__ out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  float s = 0.0f;
  for (int dy = -1; dy <= 1; ++dy) {
    int yy = min(max(y + dy, 0), height - 1);
    for (int dx = -1; dx <= 1; ++dx) {
      int xx = min(max(x + dx, 0), width - 1);
      s += c_w[(dy + 1) * 3 + dx + 1] * img[yy * width + xx];
    }
  }
  float blur = s * (1.0f / 16.0f);
  float c = img[y * width + x];
  out[y * width + x] = c + amount * (c - blur);
}

void unsharp_mask(int width, int height, float amount, const float* img, float* out) {
  if (width <= 0 || height <= 0) return;
  size_t bytes = (size_t)width * height * sizeof(float);
  float *d_img = nullptr, *d_out = nullptr;
  cudaMalloc(&d_img, bytes);
  cudaMalloc(&d_out, bytes);
  cudaMemcpy(d_img, img, bytes, cudaMemcpyHostToDevice);
  cudaMemcpyToSymbol(c_w, kBinomialHost, sizeof(kBinomialHost));
  dim3 block(32, 8);
  dim3 grid((width + 31) / 32, (height + 7) / 8);
  unsharp_const<<<grid, block>>>(width, height, amount, d_img, d_out);
  cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_img);
  cudaFree(d_out);
}
