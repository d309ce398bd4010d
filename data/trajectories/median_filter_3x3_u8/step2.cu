#include <cuda_runtime.h>
#include <cstdint>

// Compare-exchange in registers without branches: min/max compile to predicated
// IMNMX instructions, so every lane executes the same instruction stream.
#define CSWAP(a, b)          \
  {                          \
    int lo_ = min(a, b);     \
    int hi_ = max(a, b);     \
    a = lo_;                 \
    b = hi_;                 \
  }

// Fixed 19-comparator median-of-9 selection network (the data-independent
// replacement for the insertion sort); the median ends up in p4.
__device__ __forceinline__ int median9(int p0, int p1, int p2, int p3, int p4, int p5, int p6, int p7, int p8) {
  CSWAP(p1, p2); CSWAP(p4, p5); CSWAP(p7, p8);
  CSWAP(p0, p1); CSWAP(p3, p4); CSWAP(p6, p7);
  CSWAP(p1, p2); CSWAP(p4, p5); CSWAP(p7, p8);
  CSWAP(p0, p3); CSWAP(p5, p8); CSWAP(p4, p7);
  CSWAP(p3, p6); CSWAP(p1, p4); CSWAP(p2, p5);
  CSWAP(p4, p7); CSWAP(p4, p2); CSWAP(p6, p4);
  CSWAP(p4, p2);
  return p4;
}

__global__ void median3_network(const uint8_t* __restrict__ src, uint8_t* __restrict__ dst, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  int ym = max(y - 1, 0), yp = min(y + 1, height - 1);
  int xm = max(x - 1, 0), xp = min(x + 1, width - 1);
  const uint8_t* r0 = src + (size_t)ym * width;
  const uint8_t* r1 = src + (size_t)y * width;
  const uint8_t* r2 = src + (size_t)yp * width;
  int m = median9(r0[xm], r0[x], r0[xp], r1[xm], r1[x], r1[xp], r2[xm], r2[x], r2[xp]);
  dst[(size_t)y * width + x] = (uint8_t)m;
}

void median_3x3_u8(const uint8_t* src, uint8_t* dst, int width, int height) {
  if (width <= 0 || height <= 0) return;
  size_t bytes = (size_t)width * height;
  uint8_t *d_src = nullptr, *d_dst = nullptr;
  cudaMalloc(&d_src, bytes);
  cudaMalloc(&d_dst, bytes);
  cudaMemcpy(d_src, src, bytes, cudaMemcpyHostToDevice);
  dim3 block(32, 8);
  dim3 grid((width + 31) / 32, (height + 7) / 8);
  median3_network<<<grid, block>>>(d_src, d_dst, width, height);
  cudaMemcpy(dst, d_dst, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_src);
  cudaFree(d_dst);
}
