#include <cuda_runtime.h>
#include <cstdint>

// The coordinate maps depend only on x (or only on y), so they are computed once:
// dw + dh divisions in total instead of two per destination pixel.
__global__ void build_maps(int sw, int sh, int dw, int dh, int* xmap, int* ymap) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < dw) xmap[i] = (int)((long long)i * sw / dw);
  if (i < dh) ymap[i] = (int)((long long)i * sh / dh);
}

// Gather through the maps: xmap reads are coalesced, ymap[y] is uniform per row.
__global__ void resize_nn_mapped(const uint8_t* __restrict__ src, int sw, uint8_t* __restrict__ dst, int dw, int dh,
                                 const int* __restrict__ xmap, const int* __restrict__ ymap) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= dw || y >= dh) return;
  dst[(size_t)y * dw + x] = src[(size_t)ymap[y] * sw + xmap[x]];
}

void resize_nearest_u8(const uint8_t* src, int sw, int sh, uint8_t* dst, int dw, int dh) {
  if (sw <= 0 || sh <= 0 || dw <= 0 || dh <= 0) return;
  size_t sbytes = (size_t)sw * sh, dbytes = (size_t)dw * dh;
  uint8_t *d_src = nullptr, *d_dst = nullptr;
  int *d_xmap = nullptr, *d_ymap = nullptr;
  cudaMalloc(&d_src, sbytes);
  cudaMalloc(&d_dst, dbytes);
  cudaMalloc(&d_xmap, (size_t)dw * sizeof(int));
  cudaMalloc(&d_ymap, (size_t)dh * sizeof(int));
  cudaMemcpy(d_src, src, sbytes, cudaMemcpyHostToDevice);
  int m = dw > dh ? dw : dh;
  build_maps<<<(m + 255) / 256, 256>>>(sw, sh, dw, dh, d_xmap, d_ymap);
  dim3 block(32, 8);
  dim3 grid((dw + 31) / 32, (dh + 7) / 8);
  resize_nn_mapped<<<grid, block>>>(d_src, sw, d_dst, dw, dh, d_xmap, d_ymap);
  cudaMemcpy(dst, d_dst, dbytes, cudaMemcpyDeviceToHost);
  cudaFree(d_src);
  cudaFree(d_dst);
  cudaFree(d_xmap);
  cudaFree(d_ymap);
}
