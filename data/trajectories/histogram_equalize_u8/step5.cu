#include <cuda_runtime.h>
#include <cstddef>
#include <cstdint>
#include <vector>

// Phase 1, privatised and vectorised: each thread reads 16 pixels per iteration
// with one uint4 load and bins the 16 bytes into the block's shared histogram;
// the n % 16 tail pixels are spread over the grid's first threads.
__global__ void hist_shared_vec16(const uint8_t* __restrict__ img, size_t n, unsigned* __restrict__ hist) {
  __shared__ unsigned h[256];
  for (int b = threadIdx.x; b < 256; b += blockDim.x) h[b] = 0;
  __syncthreads();
  size_t groups = n / 16;
  size_t gid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t g = gid; g < groups; g += stride) {
    uint4 v = reinterpret_cast<const uint4*>(img)[g];
    unsigned w[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      atomicAdd(&h[w[q] & 255u], 1u);
      atomicAdd(&h[(w[q] >> 8) & 255u], 1u);
      atomicAdd(&h[(w[q] >> 16) & 255u], 1u);
      atomicAdd(&h[w[q] >> 24], 1u);
    }
  }
  for (size_t i = groups * 16 + gid; i < n; i += stride) atomicAdd(&h[img[i]], 1u);
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

// Fused table build + remap, 16 pixels per thread: uint4 load, sixteen shared
// table lookups, uint4 store; the tail uses scalar accesses.
__global__ void remap_fused_vec16(const uint8_t* __restrict__ img, size_t n, const unsigned* __restrict__ hist,
                                  uint8_t* __restrict__ out) {
  __shared__ unsigned warp_tot[8];
  __shared__ unsigned s_cdf_min;
  __shared__ uint8_t s_lut[256];
  lut_from_hist(hist, (unsigned long long)n, s_lut, warp_tot, &s_cdf_min);
  __syncthreads();
  size_t groups = n / 16;
  size_t gid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t g = gid; g < groups; g += stride) {
    uint4 v = reinterpret_cast<const uint4*>(img)[g];
    unsigned w[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      unsigned x = w[q];
      w[q] = (unsigned)s_lut[x & 255u] | ((unsigned)s_lut[(x >> 8) & 255u] << 8) |
             ((unsigned)s_lut[(x >> 16) & 255u] << 16) | ((unsigned)s_lut[x >> 24] << 24);
    }
    reinterpret_cast<uint4*>(out)[g] = make_uint4(w[0], w[1], w[2], w[3]);
  }
  for (size_t i = groups * 16 + gid; i < n; i += stride) out[i] = s_lut[img[i]];
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
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, hist_shared_vec16, 256, 0);
  unsigned hist_blocks = (unsigned)(sms * (per_sm > 0 ? per_sm : 1));
  if (hist_blocks > blocks) hist_blocks = blocks;
  hist_shared_vec16<<<hist_blocks, 256>>>(d_img, n, d_hist);
  remap_fused_vec16<<<hist_blocks, 256>>>(d_img, n, d_hist, d_out);
  cudaMemcpy(out.data(), d_out, n, cudaMemcpyDeviceToHost);
  cudaFree(d_img);
  cudaFree(d_out);
  cudaFree(d_hist);
}
