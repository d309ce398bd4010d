#include <cuda_runtime.h>

// One thread per output position; image and template read from global memory.
__global__ void xcorr_naive(const float* image, int iw, const float* tmpl, int tw, int th, float* out, int ow, int oh) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= ow || y >= oh) return;
  float acc = 0.0f;
  for (int v = 0; v < th; ++v)
    for (int u = 0; u < tw; ++u) acc += image[(y + v) * iw + x + u] * tmpl[v * tw + u];
  out[y * ow + x] = acc;
}

void match_template_xcorr(const float* image, int iw, int ih, const float* tmpl, int tw, int th, float* out) {
  int ow = iw - tw + 1, oh = ih - th + 1;
  if (ow <= 0 || oh <= 0 || tw <= 0 || th <= 0) return;
  size_t img_bytes = (size_t)iw * ih * sizeof(float);
  size_t t_bytes = (size_t)tw * th * sizeof(float);
  size_t out_bytes = (size_t)ow * oh * sizeof(float);
  float *d_img = nullptr, *d_t = nullptr, *d_out = nullptr;
  cudaMalloc(&d_img, img_bytes);
  cudaMalloc(&d_t, t_bytes);
  cudaMalloc(&d_out, out_bytes);
  cudaMemcpy(d_img, image, img_bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_t, tmpl, t_bytes, cudaMemcpyHostToDevice);
  dim3 block(32, 8);
  dim3 grid((ow + 31) / 32, (oh + 7) / 8);
  xcorr_naive<<<grid, block>>>(d_img, iw, d_t, tw, th, d_out, ow, oh);
  cudaMemcpy(out, d_out, out_bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_img);
  cudaFree(d_t);
  cudaFree(d_out);
}
