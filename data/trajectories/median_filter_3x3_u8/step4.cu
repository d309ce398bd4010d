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

#define BX 32
#define BY 8
#define RPT 4            // output rows per thread
#define TY (BY * RPT)    // 32 output rows per block

// Each thread produces four vertically adjacent medians. It reads its 6 x 3 byte
// window from shared memory into registers once (18 loads instead of 36) and
// slides over it; the block tile grows to 32 x 32 so the halo costs less.
__global__ void median3_coarse(const uint8_t* __restrict__ src, uint8_t* __restrict__ dst, int width, int height) {
  __shared__ uint8_t tile[TY + 2][BX + 2];
  int x0 = blockIdx.x * BX - 1, y0 = blockIdx.y * TY - 1;
  int tid = threadIdx.y * BX + threadIdx.x;
  for (int t = tid; t < (TY + 2) * (BX + 2); t += BX * BY) {
    int ty = t / (BX + 2), tx = t % (BX + 2);
    int gx = min(max(x0 + tx, 0), width - 1);
    int gy = min(max(y0 + ty, 0), height - 1);
    tile[ty][tx] = src[(size_t)gy * width + gx];
  }
  __syncthreads();
  int x = blockIdx.x * BX + threadIdx.x;
  if (x >= width) return;
  int tx = threadIdx.x, r0 = threadIdx.y * RPT;
  int a[RPT + 2], b[RPT + 2], c[RPT + 2];
#pragma unroll
  for (int r = 0; r < RPT + 2; ++r) {
    a[r] = tile[r0 + r][tx];
    b[r] = tile[r0 + r][tx + 1];
    c[r] = tile[r0 + r][tx + 2];
  }
#pragma unroll
  for (int r = 0; r < RPT; ++r) {
    int y = blockIdx.y * TY + r0 + r;
    if (y < height) {
      int m = median9(a[r], b[r], c[r], a[r + 1], b[r + 1], c[r + 1], a[r + 2], b[r + 2], c[r + 2]);
      dst[(size_t)y * width + x] = (uint8_t)m;
    }
  }
}

void median_3x3_u8(const uint8_t* src, uint8_t* dst, int width, int height) {
  if (width <= 0 || height <= 0) return;
  size_t bytes = (size_t)width * height;
  uint8_t *d_src = nullptr, *d_dst = nullptr;
  cudaMalloc(&d_src, bytes);
  cudaMalloc(&d_dst, bytes);
  cudaMemcpy(d_src, src, bytes, cudaMemcpyHostToDevice);
  dim3 block(BX, BY);
  dim3 grid((width + BX - 1) / BX, (height + TY - 1) / TY);
  median3_coarse<<<grid, block>>>(d_src, d_dst, width, height);
  cudaMemcpy(dst, d_dst, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_src);
  cudaFree(d_dst);
}
