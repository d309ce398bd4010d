#include <cuda_runtime.h>

#define BX 32
#define BY 8
#define PER 4             // output rows per thread
#define OH (BY * PER)     // output rows per block (32)
#define R 3
#define SW (BX + 2 * R)   // 38
#define SH (OH + 2 * R)   // 38

// Every loop now has a compile-time trip count and is fully unrolled: the
// staging runs 5 guarded rounds of window rows, the row-minimum pass 5 guarded
// rounds, and the 7-wide, 10-value and 4-output loops become straight-line
// code, which also keeps the register window out of local memory (a
// dynamically indexed array would be spilled there).
__global__ void erode7_unrolled(int w, int h, const float* __restrict__ img, float* __restrict__ out) {
  __shared__ float win[SH][SW];
  __shared__ float row_min[SH][BX];
  int ox = blockIdx.x * BX, oy = blockIdx.y * OH;
#pragma unroll
  for (int k = 0; k < (SH + BY - 1) / BY; ++k) {
    int r = threadIdx.y + k * BY;
    if (r < SH) {
      int gy = min(max(oy - R + r, 0), h - 1);
      const float* src = img + (size_t)gy * w;
      win[r][threadIdx.x] = src[min(max(ox - R + (int)threadIdx.x, 0), w - 1)];
      if (threadIdx.x < 2 * R) win[r][BX + threadIdx.x] = src[min(max(ox - R + BX + (int)threadIdx.x, 0), w - 1)];
    }
  }
  __syncthreads();
#pragma unroll
  for (int k = 0; k < (SH + BY - 1) / BY; ++k) {
    int r = threadIdx.y + k * BY;
    if (r < SH) {
      float m = win[r][threadIdx.x];
#pragma unroll
      for (int dx = 1; dx <= 2 * R; ++dx) m = fminf(m, win[r][threadIdx.x + dx]);
      row_min[r][threadIdx.x] = m;
    }
  }
  __syncthreads();
  int x = ox + threadIdx.x;
  int r0 = threadIdx.y * PER;
  float col[PER + 2 * R];
#pragma unroll
  for (int k = 0; k < PER + 2 * R; ++k) col[k] = row_min[r0 + k][threadIdx.x];
#pragma unroll
  for (int q = 0; q < PER; ++q) {
    float m = col[q];
#pragma unroll
    for (int dy = 1; dy <= 2 * R; ++dy) m = fminf(m, col[q + dy]);
    int y = oy + r0 + q;
    if (x < w && y < h) out[(size_t)y * w + x] = m;
  }
}

void grey_erode7(int w, int h, const float* img, float* out) {
  if (w <= 0 || h <= 0) return;
  size_t bytes = (size_t)w * h * sizeof(float);
  float *d_img = nullptr, *d_out = nullptr;
  cudaMalloc(&d_img, bytes);
  cudaMalloc(&d_out, bytes);
  cudaMemcpy(d_img, img, bytes, cudaMemcpyHostToDevice);
  dim3 block(BX, BY);
  dim3 grid((w + BX - 1) / BX, (h + OH - 1) / OH);
  erode7_unrolled<<<grid, block>>>(w, h, d_img, d_out);
  cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_img);
  cudaFree(d_out);
}
