#include <cuda_runtime.h>
#include <cstdint>
#include <vector>

#define SCAN_BLOCK 256
#define NWARPS (SCAN_BLOCK / 32)

// Inclusive scan of one value per thread across the block: a shuffle scan inside
// each warp, a shuffle scan of the eight warp totals by warp 0, then each warp
// adds the total of the warps before it. Two barriers instead of eight.
__device__ __forceinline__ uint32_t block_inclusive_scan(uint32_t v, uint32_t* warp_tot) {
  int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
#pragma unroll
  for (int off = 1; off < 32; off <<= 1) {
    uint32_t t = __shfl_up_sync(0xffffffffu, v, off);
    if (lane >= off) v += t;
  }
  if (lane == 31) warp_tot[wid] = v;
  __syncthreads();
  if (wid == 0) {
    uint32_t w = lane < NWARPS ? warp_tot[lane] : 0u;
#pragma unroll
    for (int off = 1; off < NWARPS; off <<= 1) {
      uint32_t t = __shfl_up_sync(0xffffffffu, w, off);
      if (lane >= off) w += t;
    }
    if (lane < NWARPS) warp_tot[lane] = w;
  }
  __syncthreads();
  if (wid > 0) v += warp_tot[wid - 1];
  return v;
}

// Pass 1: one block per row, scanned in 256-pixel chunks with the shuffle scan.
__global__ void sat_rows_shfl(const uint8_t* __restrict__ img, uint32_t* __restrict__ sat, int width) {
  __shared__ uint32_t warp_tot[NWARPS];
  __shared__ uint32_t chunk_total;
  const uint8_t* in = img + (size_t)blockIdx.x * width;
  uint32_t* out = sat + (size_t)blockIdx.x * width;
  int tid = threadIdx.x;
  uint32_t carry = 0;
  for (int base = 0; base < width; base += SCAN_BLOCK) {
    int x = base + tid;
    uint32_t incl = block_inclusive_scan(x < width ? (uint32_t)in[x] : 0u, warp_tot);
    if (x < width) out[x] = carry + incl;
    if (tid == SCAN_BLOCK - 1) chunk_total = incl;
    __syncthreads();
    carry += chunk_total;
    __syncthreads();  // warp_tot and chunk_total are reused by the next chunk
  }
}

#define SEG 64  // rows per column segment

// Pass 2 as a segmented reduce-then-scan, so the column scans use width x
// (height / 64) threads instead of width threads:
//   (a) each (column, segment) thread sums its 64 rows,
//   (b) one thread per column turns the segment sums into exclusive offsets,
//   (c) each (column, segment) thread rescans its rows starting from its offset.
__global__ void sat_cols_seg_sums(const uint32_t* __restrict__ sat, uint32_t* __restrict__ seg, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int s = blockIdx.y;
  if (x >= width) return;
  int y0 = s * SEG, y1 = min(y0 + SEG, height);
  uint32_t sum = 0;
  for (int y = y0; y < y1; ++y) sum += sat[(size_t)y * width + x];
  seg[(size_t)s * width + x] = sum;
}

__global__ void sat_cols_seg_offsets(uint32_t* seg, int width, int nseg) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= width) return;
  uint32_t run = 0;
  for (int s = 0; s < nseg; ++s) {
    uint32_t v = seg[(size_t)s * width + x];
    seg[(size_t)s * width + x] = run;
    run += v;
  }
}

__global__ void sat_cols_seg_apply(uint32_t* __restrict__ sat, const uint32_t* __restrict__ seg, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int s = blockIdx.y;
  if (x >= width) return;
  int y0 = s * SEG, y1 = min(y0 + SEG, height);
  uint32_t run = seg[(size_t)s * width + x];
  for (int y = y0; y < y1; ++y) {
    run += sat[(size_t)y * width + x];
    sat[(size_t)y * width + x] = run;
  }
}

void integral_image_u32(const std::vector<uint8_t>& img, std::vector<uint32_t>& sat, int width, int height) {
  if (width <= 0 || height <= 0) return;
  size_t n = (size_t)width * height;
  int nseg = (height + SEG - 1) / SEG;
  uint8_t* d_img = nullptr;
  uint32_t *d_sat = nullptr, *d_seg = nullptr;
  cudaMalloc(&d_img, n);
  cudaMalloc(&d_sat, n * sizeof(uint32_t));
  cudaMalloc(&d_seg, (size_t)nseg * width * sizeof(uint32_t));
  cudaMemcpy(d_img, img.data(), n, cudaMemcpyHostToDevice);
  sat_rows_shfl<<<height, SCAN_BLOCK>>>(d_img, d_sat, width);
  dim3 cgrid((width + 127) / 128, nseg);
  sat_cols_seg_sums<<<cgrid, 128>>>(d_sat, d_seg, width, height);
  sat_cols_seg_offsets<<<(width + 127) / 128, 128>>>(d_seg, width, nseg);
  sat_cols_seg_apply<<<cgrid, 128>>>(d_sat, d_seg, width, height);
  cudaMemcpy(sat.data(), d_sat, n * sizeof(uint32_t), cudaMemcpyDeviceToHost);
  cudaFree(d_img);
  cudaFree(d_sat);
  cudaFree(d_seg);
}
