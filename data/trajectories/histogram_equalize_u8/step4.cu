#include <cuda_runtime.h>
#include <cstddef>
#include <cstdint>
#include <vector>

// Phase 1, privatised: each block builds a 256-bin histogram in shared memory with
// fast shared atomics over a grid-stride range of pixels, then adds each non-zero
// bin to the global histogram with one atomic per bin per block. The grid is sized
// to the device, so global atomics drop from one per pixel to a few per block-bin.
__global__ void hist_shared_private(const uint8_t* __restrict__ img, size_t n, unsigned* __restrict__ hist) {
  __shared__ unsigned h[256];
  for (int b = threadIdx.x; b < 256; b += blockDim.x) h[b] = 0;
  __syncthreads();
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) atomicAdd(&h[img[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x)
    if (h[b]) atomicAdd(&hist[b], h[b]);
}

// Inclusive block scan of one value per thread (256 threads = 8 warps): shuffle
// scan inside warps, shuffle scan of the warp totals, add the preceding warps.
__device__ __forceinline__ unsigned block_scan_256(unsigned v, unsigned* warp_tot) {
  int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
#pragma unroll
  for (int off = 1; off < 32; off <<= 1) {
    unsigned t = __shfl_up_sync(0xffffffffu, v, off);
    if (lane >= off) v += t;
  }
  if (lane == 31) warp_tot[wid] = v;
  __syncthreads();
  if (wid == 0) {
    unsigned w = lane < 8 ? warp_tot[lane] : 0u;
#pragma unroll
    for (int off = 1; off < 8; off <<= 1) {
      unsigned t = __shfl_up_sync(0xffffffffu, w, off);
      if (lane >= off) w += t;
    }
    if (lane < 8) warp_tot[lane] = w;
  }
  __syncthreads();
  if (wid > 0) v += warp_tot[wid - 1];
  return v;
}

// Phase 2 in parallel: 256 threads, one per grey level. The cumulative histogram
// is a block scan; the darkest present level is the unique level with a non-zero
// count and an empty prefix, and it publishes cdf_min through shared memory.
__device__ __forceinline__ void lut_from_hist(const unsigned* hist, unsigned long long n, uint8_t* lut_out,
                                              unsigned* warp_tot, unsigned* s_cdf_min) {
  int v = threadIdx.x;
  if (v == 0) *s_cdf_min = 0;
  unsigned h = hist[v];
  unsigned cdf = block_scan_256(h, warp_tot);
  if (h > 0 && cdf == h) *s_cdf_min = cdf;
  __syncthreads();
  unsigned cdf_min = *s_cdf_min;
  unsigned long long denom = n - cdf_min;
  uint8_t r;
  if (denom == 0) r = (uint8_t)v;
  else if (cdf <= cdf_min) r = 0;
  else r = (uint8_t)(((unsigned long long)(cdf - cdf_min) * 255u + denom / 2) / denom);
  lut_out[v] = r;
}

// Phases 2 and 3 fused: every remap block rebuilds the 256-entry table from the
// global histogram in shared memory (a 256-element scan, negligible next to the
// pixels it processes) and then remaps a grid-stride range of pixels from the
// shared copy. The separate single-block launch and the global table disappear,
// and the table lookups hit shared memory.
__global__ void remap_fused(const uint8_t* __restrict__ img, size_t n, const unsigned* __restrict__ hist,
                            uint8_t* __restrict__ out) {
  __shared__ unsigned warp_tot[8];
  __shared__ unsigned s_cdf_min;
  __shared__ uint8_t s_lut[256];
  lut_from_hist(hist, (unsigned long long)n, s_lut, warp_tot, &s_cdf_min);
  __syncthreads();
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) out[i] = s_lut[img[i]];
}

void equalize_histogram(const std::vector<uint8_t>& img, std::vector<uint8_t>& out) {
  size_t n = img.size();
  if (n == 0) return;
  uint8_t *d_img = nullptr, *d_out = nullptr;
  unsigned* d_hist = nullptr;
  cudaMalloc(&d_img, n);
  cudaMalloc(&d_out, n);
  cudaMalloc(&d_hist, 256 * sizeof(unsigned));
  cudaMemcpy(d_img, img.data(), n, cudaMemcpyHostToDevice);
  cudaMemset(d_hist, 0, 256 * sizeof(unsigned));
  unsigned blocks = (unsigned)((n + 255) / 256);
  int sms = 0, per_sm = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, hist_shared_private, 256, 0);
  unsigned hist_blocks = (unsigned)(sms * (per_sm > 0 ? per_sm : 1));
  if (hist_blocks > blocks) hist_blocks = blocks;
  hist_shared_private<<<hist_blocks, 256>>>(d_img, n, d_hist);
  remap_fused<<<hist_blocks, 256>>>(d_img, n, d_hist, d_out);
  cudaMemcpy(out.data(), d_out, n, cudaMemcpyDeviceToHost);
  cudaFree(d_img);
  cudaFree(d_out);
  cudaFree(d_hist);
}
