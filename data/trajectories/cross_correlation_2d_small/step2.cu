#include <cuda_runtime.h>

#define MAX_TMPL 1024  // 32 x 32 template elements fit in constant memory

// The template is read by every thread in lock-step (same v, u in the same
// iteration), so it lives in constant memory and each read is a warp broadcast.
__constant__ float c_tmpl[MAX_TMPL];

__global__ void xcorr_const(const float* __restrict__ image, int iw, int tw, int th, float* __restrict__ out, int ow, int oh) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= ow || y >= oh) return;
  float acc = 0.0f;
  for (int v = 0; v < th; ++v)
    for (int u = 0; u < tw; ++u) acc += image[(y + v) * iw + x + u] * c_tmpl[v * tw + u];
  out[y * ow + x] = acc;
}

// Fallback for templates that do not fit in constant memory.
__global__ void xcorr_global(const float* __restrict__ image, int iw, const float* __restrict__ tmpl, int tw, int th,
                             float* __restrict__ out, int ow, int oh) {
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
  float *d_img = nullptr, *d_out = nullptr;
  cudaMalloc(&d_img, img_bytes);
  cudaMalloc(&d_out, out_bytes);
  cudaMemcpy(d_img, image, img_bytes, cudaMemcpyHostToDevice);
  dim3 block(32, 8);
  dim3 grid((ow + 31) / 32, (oh + 7) / 8);
  if (tw * th <= MAX_TMPL) {
    cudaMemcpyToSymbol(c_tmpl, tmpl, t_bytes);
    xcorr_const<<<grid, block>>>(d_img, iw, tw, th, d_out, ow, oh);
  } else {
    float* d_t = nullptr;
    cudaMalloc(&d_t, t_bytes);
    cudaMemcpy(d_t, tmpl, t_bytes, cudaMemcpyHostToDevice);
    xcorr_global<<<grid, block>>>(d_img, iw, d_t, tw, th, d_out, ow, oh);
    cudaFree(d_t);
  }
  cudaMemcpy(out, d_out, out_bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_img);
  cudaFree(d_out);
}
