#include <cuda_runtime.h>
#include <cstdint>

#define BW 32
#define BH 8
#define R 2
#define COLS_IN (BW + 2 * R)
#define ROWS_IN (BH + 2 * R)

// The minimum (and maximum) over a 5 x 5 window is the minimum over five
// neighbouring columns of each column's 5-row minimum. The block first
// computes, for each of its 8 output rows and all 36 window columns, the
// vertical extremes (shared by the five outputs that use that column), then
// each output takes the extremes of five of them: 10 comparisons per extreme
// instead of 25.
__global__ void range_separable(int width, int height, const uint8_t* __restrict__ img, uint8_t* __restrict__ out) {
  __shared__ uint8_t win[ROWS_IN][COLS_IN];
  __shared__ uint8_t col_lo[BH][COLS_IN], col_hi[BH][COLS_IN];
  int ox = blockIdx.x * BW, oy = blockIdx.y * BH;
  // Rows of the apron-extended window, one warp-row of threads per pass; the
  // clamping of the edges happens here, once per staged pixel.
  for (int r = threadIdx.y; r < ROWS_IN; r += blockDim.y) {
    int gy = min(max(oy - R + r, 0), height - 1);
    for (int c = threadIdx.x; c < COLS_IN; c += blockDim.x) {
      int gx = min(max(ox - R + c, 0), width - 1);
      win[r][c] = img[(size_t)gy * width + gx];
    }
  }
  __syncthreads();
  for (int c = threadIdx.x; c < COLS_IN; c += BW) {
    int lo = 255, hi = 0;
    for (int dy = 0; dy <= 2 * R; ++dy) {
      int v = win[threadIdx.y + dy][c];
      lo = min(lo, v);
      hi = max(hi, v);
    }
    col_lo[threadIdx.y][c] = (uint8_t)lo;
    col_hi[threadIdx.y][c] = (uint8_t)hi;
  }
  __syncthreads();
  int x = ox + threadIdx.x, y = oy + threadIdx.y;
  if (x >= width || y >= height) return;
  int lo = 255, hi = 0;
  for (int dx = 0; dx <= 2 * R; ++dx) {
    lo = min(lo, (int)col_lo[threadIdx.y][threadIdx.x + dx]);
    hi = max(hi, (int)col_hi[threadIdx.y][threadIdx.x + dx]);
  }
  out[(size_t)y * width + x] = (uint8_t)(hi - lo);
}

void local_range_5x5(int width, int height, const uint8_t* img, uint8_t* out) {
  if (width <= 0 || height <= 0) return;
  size_t pixels = (size_t)width * height;
  uint8_t *d_img = nullptr, *d_out = nullptr;
  cudaMalloc(&d_img, pixels);
  cudaMalloc(&d_out, pixels);
  cudaMemcpy(d_img, img, pixels, cudaMemcpyHostToDevice);
  dim3 block(BW, BH);
  dim3 grid((width + BW - 1) / BW, (height + BH - 1) / BH);
  range_separable<<<grid, block>>>(width, height, d_img, d_out);
  cudaMemcpy(out, d_out, pixels, cudaMemcpyDeviceToHost);
  cudaFree(d_img);
  cudaFree(d_out);
}
