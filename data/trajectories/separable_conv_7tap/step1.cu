#include <cuda_runtime.h>

// Horizontal pass: one thread per pixel, clamped reads, taps in global memory.
__global__ void sep7_rows(int w, int h, const float* img, const float* kx, float* tmp) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float acc = 0.0f;
  for (int k = 0; k < 7; ++k) {
    int xx = min(max(x + k - 3, 0), w - 1);
    acc += kx[k] * img[(size_t)y * w + xx];
  }
  tmp[(size_t)y * w + x] = acc;
}

// Vertical pass over the intermediate image.
__global__ void sep7_cols(int w, int h, const float* tmp, const float* ky, float* out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float acc = 0.0f;
  for (int k = 0; k < 7; ++k) {
    int yy = min(max(y + k - 3, 0), h - 1);
    acc += ky[k] * tmp[(size_t)yy * w + x];
  }
  out[(size_t)y * w + x] = acc;
}

void separable_filter7(int w, int h, const float* img, const float* kx, const float* ky, float* out) {
  if (w <= 0 || h <= 0) return;
  size_t bytes = (size_t)w * h * sizeof(float);
  float *d_img, *d_tmp, *d_out, *d_kx, *d_ky;
  cudaMalloc(&d_img, bytes);
  cudaMalloc(&d_tmp, bytes);
  cudaMalloc(&d_out, bytes);
  cudaMalloc(&d_kx, 7 * sizeof(float));
  cudaMalloc(&d_ky, 7 * sizeof(float));
  cudaMemcpy(d_img, img, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_kx, kx, 7 * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_ky, ky, 7 * sizeof(float), cudaMemcpyHostToDevice);
  dim3 block(32, 8);
  dim3 grid((w + 31) / 32, (h + 7) / 8);
  sep7_rows<<<grid, block>>>(w, h, d_img, d_kx, d_tmp);
  sep7_cols<<<grid, block>>>(w, h, d_tmp, d_ky, d_out);
  cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_img);
  cudaFree(d_tmp);
  cudaFree(d_out);
  cudaFree(d_kx);
  cudaFree(d_ky);
}
