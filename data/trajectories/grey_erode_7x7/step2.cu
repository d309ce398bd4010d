#include <cuda_runtime.h>

#define BX 32
#define BY 8
#define R 3
#define SW (BX + 2 * R)  // staged columns (38)
#define SH (BY + 2 * R)  // staged rows (14)

// Each input pixel was read by 49 threads. The block stages its 38 x 14
// window (outputs plus a three-pixel apron, clamped while loading) in shared
// memory and takes all 49 values of a window from there.
__global__ void erode7_tile(int w, int h, const float* __restrict__ img, float* __restrict__ out) {
  __shared__ float win[SH][SW];
  int ox = blockIdx.x * BX, oy = blockIdx.y * BY;
  for (int r = threadIdx.y; r < SH; r += BY) {
    int gy = min(max(oy - R + r, 0), h - 1);
    for (int c = threadIdx.x; c < SW; c += BX) win[r][c] = img[(size_t)gy * w + min(max(ox - R + c, 0), w - 1)];
  }
  __syncthreads();
  int x = ox + threadIdx.x, y = oy + threadIdx.y;
  if (x >= w || y >= h) return;
  float m = win[threadIdx.y + R][threadIdx.x + R];
  for (int dy = 0; dy <= 2 * R; ++dy)
    for (int dx = 0; dx <= 2 * R; ++dx) m = fminf(m, win[threadIdx.y + dy][threadIdx.x + dx]);
  out[(size_t)y * w + x] = m;
}

void grey_erode7(int w, int h, const float* img, float* out) {
  if (w <= 0 || h <= 0) return;
  size_t bytes = (size_t)w * h * sizeof(float);
  float *d_img = nullptr, *d_out = nullptr;
  cudaMalloc(&d_img, bytes);
  cudaMalloc(&d_out, bytes);
  cudaMemcpy(d_img, img, bytes, cudaMemcpyHostToDevice);
  dim3 block(BX, BY);
  dim3 grid((w + BX - 1) / BX, (h + BY - 1) / BY);
  erode7_tile<<<grid, block>>>(w, h, d_img, d_out);
  cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_img);
  cudaFree(d_out);
}
