#include <cuda_runtime.h>

// One thread per sample point.
__global__ void bilerp_naive(const float* img, int width, int height, int npts, const float* px, const float* py,
                             float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= npts) return;
  float x = px[i], y = py[i];
  x = x < 0.0f ? 0.0f : (x > width - 1 ? (float)(width - 1) : x);
  y = y < 0.0f ? 0.0f : (y > height - 1 ? (float)(height - 1) : y);
  int x0 = (int)floorf(x), y0 = (int)floorf(y);
  int x1 = x0 + 1 < width ? x0 + 1 : width - 1;
  int y1 = y0 + 1 < height ? y0 + 1 : height - 1;
  float fx = x - x0, fy = y - y0;
  float top = (1.0f - fx) * img[(long)y0 * width + x0] + fx * img[(long)y0 * width + x1];
  float bot = (1.0f - fx) * img[(long)y1 * width + x0] + fx * img[(long)y1 * width + x1];
  out[i] = (1.0f - fy) * top + fy * bot;
}

void sample_bilinear(const float* img, int width, int height, int npts, const float* px, const float* py, float* out) {
  if (npts <= 0 || width <= 0 || height <= 0) return;
  size_t ib = (size_t)width * height * sizeof(float), pb = (size_t)npts * sizeof(float);
  float *d_img, *d_px, *d_py, *d_out;
  cudaMalloc(&d_img, ib);
  cudaMalloc(&d_px, pb);
  cudaMalloc(&d_py, pb);
  cudaMalloc(&d_out, pb);
  cudaMemcpy(d_img, img, ib, cudaMemcpyHostToDevice);
  cudaMemcpy(d_px, px, pb, cudaMemcpyHostToDevice);
  cudaMemcpy(d_py, py, pb, cudaMemcpyHostToDevice);
  bilerp_naive<<<(npts + 255) / 256, 256>>>(d_img, width, height, npts, d_px, d_py, d_out);
  cudaMemcpy(out, d_out, pb, cudaMemcpyDeviceToHost);
  cudaFree(d_img);
  cudaFree(d_px);
  cudaFree(d_py);
  cudaFree(d_out);
}
