#include <cuda_runtime.h>
#include <cstddef>
#include <cstdint>
#include <vector>

// Phase 1: one thread per pixel increments its bin with a global atomicAdd.
__global__ void hist_global_atomic(const uint8_t* img, size_t n, unsigned* hist) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&hist[img[i]], 1u);
}

// Phase 2: a single thread scans the 256 bins and builds the table (as the reference).
__global__ void build_lut_serial(const unsigned* hist, unsigned long long n, uint8_t* lut) {
  unsigned cdf[256];
  unsigned run = 0, cdf_min = 0;
  for (int v = 0; v < 256; ++v) {
    run += hist[v];
    cdf[v] = run;
    if (cdf_min == 0 && run > 0) cdf_min = run;
  }
  unsigned long long denom = n - cdf_min;
  for (int v = 0; v < 256; ++v) {
    if (denom == 0) lut[v] = (uint8_t)v;
    else if (cdf[v] <= cdf_min) lut[v] = 0;
    else lut[v] = (uint8_t)(((unsigned long long)(cdf[v] - cdf_min) * 255u + denom / 2) / denom);
  }
}

// Phase 3: one thread per pixel remaps through the table.
__global__ void remap_pixels(const uint8_t* img, size_t n, const uint8_t* lut, uint8_t* out) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = lut[img[i]];
}

void equalize_histogram(const std::vector<uint8_t>& img, std::vector<uint8_t>& out) {
  size_t n = img.size();
  if (n == 0) return;
  uint8_t *d_img = nullptr, *d_out = nullptr, *d_lut = nullptr;
  unsigned* d_hist = nullptr;
  cudaMalloc(&d_img, n);
  cudaMalloc(&d_out, n);
  cudaMalloc(&d_lut, 256);
  cudaMalloc(&d_hist, 256 * sizeof(unsigned));
  cudaMemcpy(d_img, img.data(), n, cudaMemcpyHostToDevice);
  cudaMemset(d_hist, 0, 256 * sizeof(unsigned));
  unsigned blocks = (unsigned)((n + 255) / 256);
  hist_global_atomic<<<blocks, 256>>>(d_img, n, d_hist);
  build_lut_serial<<<1, 1>>>(d_hist, (unsigned long long)n, d_lut);
  remap_pixels<<<blocks, 256>>>(d_img, n, d_lut, d_out);
  cudaMemcpy(out.data(), d_out, n, cudaMemcpyDeviceToHost);
  cudaFree(d_img);
  cudaFree(d_out);
  cudaFree(d_lut);
  cudaFree(d_hist);
}
