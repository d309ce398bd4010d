#include <cuda_runtime.h>
#include <cstdint>

#define RPT 8  // output rows per thread

// Horizontal 3-minimum of row yy around column x (clamped columns replicate the
// edge pixel, which cannot change a minimum).
__device__ __forceinline__ int hmin3(const uint8_t* __restrict__ src, int width, int yy, int xm, int x, int xp) {
  const uint8_t* row = src + (size_t)yy * width;
  return min(min((int)row[xm], (int)row[x]), (int)row[xp]);
}

// Scalar strip kernel, kept for widths that are not a multiple of four.
__global__ void erode_strip(int width, int height, const uint8_t* __restrict__ src, uint8_t* __restrict__ dst) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y0 = (blockIdx.y * blockDim.y + threadIdx.y) * RPT;
  if (x >= width || y0 >= height) return;
  int xm = max(x - 1, 0), xp = min(x + 1, width - 1);
  int up = hmin3(src, width, max(y0 - 1, 0), xm, x, xp);
  int mid = hmin3(src, width, y0, xm, x, xp);
#pragma unroll
  for (int r = 0; r < RPT; ++r) {
    int y = y0 + r;
    if (y >= height) break;
    int down = hmin3(src, width, min(y + 1, height - 1), xm, x, xp);
    dst[(size_t)y * width + x] = (uint8_t)min(min(up, mid), down);
    up = mid;
    mid = down;
  }
}

// Horizontal 3-minimum of four adjacent pixels at once: the 32-bit word holding
// columns x..x+3 is shifted by one byte each way (the missing byte comes from the
// clamped neighbour column) and combined with the byte-wise SIMD minimum.
__device__ __forceinline__ unsigned hmin3_x4(const uint8_t* __restrict__ src, int width, int yy, int x) {
  const uint8_t* row = src + (size_t)yy * width;
  unsigned w = *reinterpret_cast<const unsigned*>(row + x);
  unsigned lb = row[max(x - 1, 0)];
  unsigned rb = row[min(x + 4, width - 1)];
  unsigned left = (w << 8) | lb;      // bytes x-1 .. x+2
  unsigned right = (w >> 8) | (rb << 24);  // bytes x+1 .. x+4
  return __vminu4(__vminu4(left, w), right);
}

// SIMD-within-a-word strip kernel (width % 4 == 0): each thread handles four
// columns and RPT rows, with one 32-bit load per row, byte-wise __vminu4 for
// both the horizontal and the vertical minima, and one 32-bit store per row.
__global__ void erode_strip_x4(int width, int height, const uint8_t* __restrict__ src, uint8_t* __restrict__ dst) {
  int x = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
  int y0 = (blockIdx.y * blockDim.y + threadIdx.y) * RPT;
  if (x >= width || y0 >= height) return;
  unsigned up = hmin3_x4(src, width, max(y0 - 1, 0), x);
  unsigned mid = hmin3_x4(src, width, y0, x);
#pragma unroll
  for (int r = 0; r < RPT; ++r) {
    int y = y0 + r;
    if (y >= height) break;
    unsigned down = hmin3_x4(src, width, min(y + 1, height - 1), x);
    *reinterpret_cast<unsigned*>(dst + (size_t)y * width + x) = __vminu4(__vminu4(up, mid), down);
    up = mid;
    mid = down;
  }
}

void erode_3x3_u8(int width, int height, const uint8_t* src, uint8_t* dst) {
  if (width <= 0 || height <= 0) return;
  size_t bytes = (size_t)width * height;
  uint8_t *d_src = nullptr, *d_dst = nullptr;
  cudaMalloc(&d_src, bytes);
  cudaMalloc(&d_dst, bytes);
  cudaMemcpy(d_src, src, bytes, cudaMemcpyHostToDevice);
  dim3 block(32, 8);
  int strips = (height + RPT - 1) / RPT;
  if (width % 4 == 0) {
    dim3 grid((width / 4 + 31) / 32, (strips + 7) / 8);
    erode_strip_x4<<<grid, block>>>(width, height, d_src, d_dst);
  } else {
    dim3 grid((width + 31) / 32, (strips + 7) / 8);
    erode_strip<<<grid, block>>>(width, height, d_src, d_dst);
  }
  cudaMemcpy(dst, d_dst, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_src);
  cudaFree(d_dst);
}
