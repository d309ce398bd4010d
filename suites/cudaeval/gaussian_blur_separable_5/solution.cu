#include <cuda_runtime.h>
#include <cstddef>

// Both passes fused in one kernel. A 32 x 8 block owns a 32 x 32 output tile.
// It stages the (32 + 4) x (32 + 4) input tile with clamped coordinates in
// shared memory, runs the horizontal pass for all 36 rows into a second shared
// array (the intermediate image never touches global memory), then the
// vertical pass writes the outputs. Clamping while loading reproduces the
// serial code's edge rule exactly: row pass value for tile row r is
// tmp[clamp(by - 2 + r)], which is what the vertical pass asks for.
#define TW 32
#define TH 32
#define BY 8
#define R 2

__device__ __forceinline__ int clampi(int v, int hi) { return v < 0 ? 0 : (v > hi ? hi : v); }

__global__ void gauss5_fused_kernel(int width, int height, const float* __restrict__ src, float* __restrict__ dst) {
  __shared__ float in[TH + 2 * R][TW + 2 * R];
  __shared__ float hrow[TH + 2 * R][TW];
  const float w0 = 0.0625f, w1 = 0.25f, w2 = 0.375f;
  int bx = blockIdx.x * TW, by = blockIdx.y * TH;
  int tx = threadIdx.x, ty = threadIdx.y;
  int tid = ty * TW + tx;

  for (int idx = tid; idx < (TH + 2 * R) * (TW + 2 * R); idx += TW * BY) {
    int r = idx / (TW + 2 * R), c = idx % (TW + 2 * R);
    int gy = clampi(by - R + r, height - 1);
    int gx = clampi(bx - R + c, width - 1);
    in[r][c] = src[(size_t)gy * width + gx];
  }
  __syncthreads();

  for (int r = ty; r < TH + 2 * R; r += BY) {
    float acc = 0.0f;
    acc += w0 * in[r][tx + 0];
    acc += w1 * in[r][tx + 1];
    acc += w2 * in[r][tx + 2];
    acc += w1 * in[r][tx + 3];
    acc += w0 * in[r][tx + 4];
    hrow[r][tx] = acc;
  }
  __syncthreads();

  int x = bx + tx;
#pragma unroll
  for (int k = 0; k < TH / BY; ++k) {
    int r = ty + k * BY;  // tile-local output row
    float acc = 0.0f;
    acc += w0 * hrow[r + 0][tx];
    acc += w1 * hrow[r + 1][tx];
    acc += w2 * hrow[r + 2][tx];
    acc += w1 * hrow[r + 3][tx];
    acc += w0 * hrow[r + 4][tx];
    int y = by + r;
    if (y < height && x < width) dst[(size_t)y * width + x] = acc;
  }
}

void gaussianBlur5Clamp(int width, int height, const float* src, float* dst) {
  if (width <= 0 || height <= 0) return;
  size_t bytes = (size_t)width * (size_t)height * sizeof(float);
  float *dsrc = nullptr, *ddst = nullptr;
  cudaMalloc(&dsrc, bytes);
  cudaMalloc(&ddst, bytes);
  cudaMemcpy(dsrc, src, bytes, cudaMemcpyHostToDevice);
  dim3 block(TW, BY);
  dim3 grid((unsigned)((width + TW - 1) / TW), (unsigned)((height + TH - 1) / TH));
  gauss5_fused_kernel<<<grid, block>>>(width, height, dsrc, ddst);
  cudaMemcpy(dst, ddst, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dsrc);
  cudaFree(ddst);
}
