#include <cuda_runtime.h>
#include <cstdint>

#define BW 32
#define BH 8
#define R 2
#define COLS_IN (BW + 2 * R)
#define ROWS_IN (BH + 2 * R)

// Each input pixel was loaded by 25 threads. The block stages its 36 x 12
// window (the 32 x 8 outputs plus a two-pixel apron) in shared memory once;
// the 25-pixel scan then reads shared memory and needs no clamping.
__global__ void range_tile(int width, int height, const uint8_t* __restrict__ img, uint8_t* __restrict__ out) {
  __shared__ uint8_t win[ROWS_IN][COLS_IN];
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
  int x = ox + threadIdx.x, y = oy + threadIdx.y;
  if (x >= width || y >= height) return;
  int lo = 255, hi = 0;
  for (int dy = 0; dy <= 2 * R; ++dy) {
    for (int dx = 0; dx <= 2 * R; ++dx) {
      int v = win[threadIdx.y + dy][threadIdx.x + dx];
      lo = min(lo, v);
      hi = max(hi, v);
    }
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
  range_tile<<<grid, block>>>(width, height, d_img, d_out);
  cudaMemcpy(out, d_out, pixels, cudaMemcpyDeviceToHost);
  cudaFree(d_img);
  cudaFree(d_out);
}
