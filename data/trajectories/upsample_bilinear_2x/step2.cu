#include <cuda_runtime.h>
#include <vector>

// Sample position of output coordinate O along an axis of n source pixels, as in
// the reference: returns the two source indices and the fractional weight.
__device__ __forceinline__ void axis_sample(int O, int n, int& i0, int& i1, float& f) {
  float s = (O + 0.5f) * 0.5f - 0.5f;
  if (s < 0.0f) s = 0.0f;
  if (s > n - 1) s = (float)(n - 1);
  i0 = (int)floorf(s);
  i1 = i0 + 1 < n ? i0 + 1 : n - 1;
  f = s - i0;
}

__device__ __forceinline__ float pick3(float a, float b, float c, int o) { return o == 0 ? a : (o == 1 ? b : c); }

// Each thread owns source pixel (k, m) and produces the 2x2 output quad
// X in {2k, 2k+1}, Y in {2m, 2m+1}. All four outputs interpolate within the
// clamped 3x3 neighbourhood of (k, m), which is loaded into registers once:
// 9 loads per 4 outputs instead of 16.
__global__ void up2_quad(const float* __restrict__ src, int width, int height, float* __restrict__ dst) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  int m = blockIdx.y * blockDim.y + threadIdx.y;
  if (k >= width || m >= height) return;
  float r[3][3];
#pragma unroll
  for (int j = 0; j < 3; ++j) {
    int yy = min(max(m - 1 + j, 0), height - 1);
#pragma unroll
    for (int i = 0; i < 3; ++i) {
      int xx = min(max(k - 1 + i, 0), width - 1);
      r[j][i] = src[yy * width + xx];
    }
  }
  int ow = 2 * width;
#pragma unroll
  for (int qy = 0; qy < 2; ++qy) {
    int y0, y1;
    float fy;
    axis_sample(2 * m + qy, height, y0, y1, fy);
    int oy0 = y0 - (m - 1), oy1 = y1 - (m - 1);  // both in 0..2
#pragma unroll
    for (int qx = 0; qx < 2; ++qx) {
      int x0, x1;
      float fx;
      axis_sample(2 * k + qx, width, x0, x1, fx);
      int ox0 = x0 - (k - 1), ox1 = x1 - (k - 1);
      // rows y0 and y1 of the register window, picked without dynamic indexing
      float a0 = pick3(r[0][0], r[1][0], r[2][0], oy0), a1 = pick3(r[0][1], r[1][1], r[2][1], oy0),
            a2 = pick3(r[0][2], r[1][2], r[2][2], oy0);
      float b0 = pick3(r[0][0], r[1][0], r[2][0], oy1), b1 = pick3(r[0][1], r[1][1], r[2][1], oy1),
            b2 = pick3(r[0][2], r[1][2], r[2][2], oy1);
      float top = (1.0f - fx) * pick3(a0, a1, a2, ox0) + fx * pick3(a0, a1, a2, ox1);
      float bot = (1.0f - fx) * pick3(b0, b1, b2, ox0) + fx * pick3(b0, b1, b2, ox1);
      dst[(2 * m + qy) * ow + 2 * k + qx] = (1.0f - fy) * top + fy * bot;
    }
  }
}

void upsample_bilinear_2x(const std::vector<float>& src, int width, int height, std::vector<float>& dst) {
  if (width <= 0 || height <= 0) return;
  size_t in_bytes = (size_t)width * height * sizeof(float);
  size_t out_bytes = 4 * in_bytes;
  float *d_src = nullptr, *d_dst = nullptr;
  cudaMalloc(&d_src, in_bytes);
  cudaMalloc(&d_dst, out_bytes);
  cudaMemcpy(d_src, src.data(), in_bytes, cudaMemcpyHostToDevice);
  dim3 block(32, 8);
  dim3 grid((width + 31) / 32, (height + 7) / 8);
  up2_quad<<<grid, block>>>(d_src, width, height, d_dst);
  cudaMemcpy(dst.data(), d_dst, out_bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_src);
  cudaFree(d_dst);
}
