#include <cuda_runtime.h>
#include <cstddef>

// One thread per output pixel: 11 clamped global reads along its row.
__global__ void fir11_naive(int w, int h, const float* img, const float* taps, float* out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float acc = 0.0f;
  for (int k = 0; k < 11; ++k) {
    int xx = min(max(x + k - 5, 0), w - 1);
    acc += taps[k] * img[(size_t)y * w + xx];
  }
  out[(size_t)y * w + x] = acc;
}

void fir_rows11(int w, int h, const float* img, const float* taps, float* out) {
  if (w <= 0 || h <= 0) return;
  size_t bytes = (size_t)w * h * sizeof(float);
  float *d_img, *d_taps, *d_out;
  cudaMalloc(&d_img, bytes);
  cudaMalloc(&d_taps, 11 * sizeof(float));
  cudaMalloc(&d_out, bytes);
  cudaMemcpy(d_img, img, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_taps, taps, 11 * sizeof(float), cudaMemcpyHostToDevice);
  dim3 block(32, 8);
  dim3 grid((w + 31) / 32, (h + 7) / 8);
  fir11_naive<<<grid, block>>>(w, h, d_img, d_taps, d_out);
  cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_img);
  cudaFree(d_taps);
  cudaFree(d_out);
}
