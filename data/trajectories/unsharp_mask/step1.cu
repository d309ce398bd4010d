#include <cuda_runtime.h>
#include <cstddef>

static const float kBinomialHost[9] = {1.0f, 2.0f, 1.0f, 2.0f, 4.0f, 2.0f, 1.0f, 2.0f, 1.0f};

// Pass 1: one thread per pixel computes the clamped 3x3 binomial blur into a
// temporary device image. The nine weights live in a small global array.
__global__ void blur_pass(int width, int height, const float* w, const float* img, float* blur) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  float s = 0.0f;
  for (int dy = -1; dy <= 1; ++dy) {
    int yy = min(max(y + dy, 0), height - 1);
    for (int dx = -1; dx <= 1; ++dx) {
      int xx = min(max(x + dx, 0), width - 1);
      s += w[(dy + 1) * 3 + dx + 1] * img[yy * width + xx];
    }
  }
  blur[y * width + x] = s * (1.0f / 16.0f);
}

// Pass 2: element-wise sharpening.
__global__ void sharpen_pass(int n, float amount, const float* img, const float* blur, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = img[i] + amount * (img[i] - blur[i]);
}

void unsharp_mask(int width, int height, float amount, const float* img, float* out) {
  if (width <= 0 || height <= 0) return;
  int n = width * height;
  size_t bytes = (size_t)n * sizeof(float);
  float *d_img = nullptr, *d_blur = nullptr, *d_out = nullptr, *d_w = nullptr;
  cudaMalloc(&d_img, bytes);
  cudaMalloc(&d_blur, bytes);
  cudaMalloc(&d_out, bytes);
  cudaMalloc(&d_w, sizeof(kBinomialHost));
  cudaMemcpy(d_img, img, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_w, kBinomialHost, sizeof(kBinomialHost), cudaMemcpyHostToDevice);
  dim3 block(32, 8);
  dim3 grid((width + 31) / 32, (height + 7) / 8);
  blur_pass<<<grid, block>>>(width, height, d_w, d_img, d_blur);
  sharpen_pass<<<(n + 255) / 256, 256>>>(n, amount, d_img, d_blur, d_out);
  cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_img);
  cudaFree(d_blur);
  cudaFree(d_out);
  cudaFree(d_w);
}
