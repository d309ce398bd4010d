#include <cuda_runtime.h>
#include <cstddef>
#include <cstdint>
#include <vector>

__device__ __forceinline__ unsigned clamp_u8(int v) { return (unsigned)min(max(v, 0), 255); }

// One thread per pixel: three byte loads, three byte stores.
__global__ void ycc_naive(const uint8_t* rgb, uint8_t* ycc, int npixels) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= npixels) return;
  size_t o = 3 * (size_t)p;
  int r = rgb[o], g = rgb[o + 1], b = rgb[o + 2];
  ycc[o] = (uint8_t)clamp_u8((77 * r + 150 * g + 29 * b + 128) >> 8);
  ycc[o + 1] = (uint8_t)clamp_u8(((-43 * r - 85 * g + 128 * b + 128) >> 8) + 128);
  ycc[o + 2] = (uint8_t)clamp_u8(((128 * r - 107 * g - 21 * b + 128) >> 8) + 128);
}

void rgb_to_ycbcr(const std::vector<uint8_t>& rgb, std::vector<uint8_t>& ycc, int npixels) {
  if (npixels <= 0) return;
  size_t bytes = 3 * (size_t)npixels;
  uint8_t *d_rgb = nullptr, *d_ycc = nullptr;
  cudaMalloc(&d_rgb, bytes);
  cudaMalloc(&d_ycc, bytes);
  cudaMemcpy(d_rgb, rgb.data(), bytes, cudaMemcpyHostToDevice);
  ycc_naive<<<(npixels + 255) / 256, 256>>>(d_rgb, d_ycc, npixels);
  cudaMemcpy(ycc.data(), d_ycc, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_rgb);
  cudaFree(d_ycc);
}
