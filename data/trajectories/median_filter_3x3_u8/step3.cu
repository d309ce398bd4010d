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

// The block loads its (8+2) x (32+2) byte window once into shared memory (edge
// clamping applied at load time); the nine window reads then hit shared memory.
__global__ void median3_smem(const uint8_t* __restrict__ src, uint8_t* __restrict__ dst, int width, int height) {
  __shared__ uint8_t tile[BY + 2][BX + 2];
  int x0 = blockIdx.x * BX - 1, y0 = blockIdx.y * BY - 1;
  int tid = threadIdx.y * BX + threadIdx.x;
  for (int t = tid; t < (BY + 2) * (BX + 2); t += BX * BY) {
    int ty = t / (BX + 2), tx = t % (BX + 2);
    int gx = min(max(x0 + tx, 0), width - 1);
    int gy = min(max(y0 + ty, 0), height - 1);
    tile[ty][tx] = src[(size_t)gy * width + gx];
  }
  __syncthreads();
  int x = blockIdx.x * BX + threadIdx.x;
  int y = blockIdx.y * BY + threadIdx.y;
  if (x >= width || y >= height) return;
  int tx = threadIdx.x, ty = threadIdx.y;
  int m = median9(tile[ty][tx], tile[ty][tx + 1], tile[ty][tx + 2],
                  tile[ty + 1][tx], tile[ty + 1][tx + 1], tile[ty + 1][tx + 2],
                  tile[ty + 2][tx], tile[ty + 2][tx + 1], tile[ty + 2][tx + 2]);
  dst[(size_t)y * width + x] = (uint8_t)m;
}

void median_3x3_u8(const uint8_t* src, uint8_t* dst, int width, int height) {
  if (width <= 0 || height <= 0) return;
  size_t bytes = (size_t)width * height;
  uint8_t *d_src = nullptr, *d_dst = nullptr;
  cudaMalloc(&d_src, bytes);
  cudaMalloc(&d_dst, bytes);
  cudaMemcpy(d_src, src, bytes, cudaMemcpyHostToDevice);
  dim3 block(BX, BY);
  dim3 grid((width + BX - 1) / BX, (height + BY - 1) / BY);
  median3_smem<<<grid, block>>>(d_src, d_dst, width, height);
  cudaMemcpy(dst, d_dst, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_src);
  cudaFree(d_dst);
}
