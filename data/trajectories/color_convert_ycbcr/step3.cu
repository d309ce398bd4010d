#include <cuda_runtime.h>
#include <cstddef>
#include <cstdint>
#include <vector>

__device__ __forceinline__ unsigned clamp_u8(int v) { return (unsigned)min(max(v, 0), 255); }

// Converts one pixel given as three ints, returning Y | Cb << 8 | Cr << 16.
__device__ __forceinline__ unsigned ycc_px(int r, int g, int b) {
  unsigned y = clamp_u8((77 * r + 150 * g + 29 * b + 128) >> 8);
  unsigned cb = clamp_u8(((-43 * r - 85 * g + 128 * b + 128) >> 8) + 128);
  unsigned cr = clamp_u8(((128 * r - 107 * g - 21 * b + 128) >> 8) + 128);
  return y | (cb << 8) | (cr << 16);
}

// Four pixels (12 bytes) per thread as three aligned 32-bit words in and out:
// group q starts at byte 12q, a multiple of 4. The bytes are unpacked, converted
// and repacked in registers. A final partial group uses byte accesses.
__global__ void ycc_vec4px(const uint8_t* __restrict__ rgb, uint8_t* __restrict__ ycc, int npixels) {
  long q = (long)blockIdx.x * blockDim.x + threadIdx.x;
  long p0 = 4 * q;
  if (p0 >= npixels) return;
  if (p0 + 3 < npixels) {
    const unsigned* in = reinterpret_cast<const unsigned*>(rgb) + 3 * q;
    unsigned w0 = in[0], w1 = in[1], w2 = in[2];
    // bytes: w0 = r0 g0 b0 r1, w1 = g1 b1 r2 g2, w2 = b2 r3 g3 b3 (little endian)
    unsigned c0 = ycc_px(w0 & 255u, (w0 >> 8) & 255u, (w0 >> 16) & 255u);
    unsigned c1 = ycc_px(w0 >> 24, w1 & 255u, (w1 >> 8) & 255u);
    unsigned c2 = ycc_px((w1 >> 16) & 255u, w1 >> 24, w2 & 255u);
    unsigned c3 = ycc_px((w2 >> 8) & 255u, (w2 >> 16) & 255u, w2 >> 24);
    unsigned* out = reinterpret_cast<unsigned*>(ycc) + 3 * q;
    out[0] = c0 | (c1 << 24);
    out[1] = (c1 >> 8) | (c2 << 16);
    out[2] = (c2 >> 16) | (c3 << 8);
  } else {
    for (long p = p0; p < npixels; ++p) {
      unsigned c = ycc_px(rgb[3 * p], rgb[3 * p + 1], rgb[3 * p + 2]);
      ycc[3 * p] = (uint8_t)(c & 255u);
      ycc[3 * p + 1] = (uint8_t)((c >> 8) & 255u);
      ycc[3 * p + 2] = (uint8_t)(c >> 16);
    }
  }
}

// Device buffers persist across calls and grow on demand, so repeated calls skip
// two cudaMalloc/cudaFree pairs (cudaFree also synchronises the device).
static uint8_t* g_rgb = nullptr;
static uint8_t* g_ycc = nullptr;
static size_t g_cap = 0;

void rgb_to_ycbcr(const std::vector<uint8_t>& rgb, std::vector<uint8_t>& ycc, int npixels) {
  if (npixels <= 0) return;
  size_t bytes = 3 * (size_t)npixels;
  if (bytes > g_cap) {
    cudaFree(g_rgb);
    cudaFree(g_ycc);
    cudaMalloc(&g_rgb, bytes);
    cudaMalloc(&g_ycc, bytes);
    g_cap = bytes;
  }
  cudaMemcpy(g_rgb, rgb.data(), bytes, cudaMemcpyHostToDevice);
  ycc_vec4px<<<(unsigned)(((npixels + 3L) / 4 + 255) / 256), 256>>>(g_rgb, g_ycc, npixels);
  cudaMemcpy(ycc.data(), g_ycc, bytes, cudaMemcpyDeviceToHost);
}
