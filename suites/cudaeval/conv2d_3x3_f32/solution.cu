#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

// The nine weights are read by every thread in lock-step: constant memory
// broadcasts them. A 32 x 8 block produces a 32 x 32 output tile; the tile
// plus a one-pixel halo (34 x 34, zeros outside the image) is staged in shared
// memory once. Each thread computes four vertically adjacent outputs from a
// 6 x 3 window it keeps in registers (rows shared by neighbouring outputs are
// loaded once).
#define TW 32
#define TH 32
#define BY 8
#define RPT (TH / BY)

__constant__ float c_w[9];

__global__ void conv3x3_tiled_kernel(const float* __restrict__ img, float* __restrict__ out, int height, int width) {
  __shared__ float tile[TH + 2][TW + 2];
  int bx = blockIdx.x * TW, by = blockIdx.y * TH;
  int tid = threadIdx.y * TW + threadIdx.x;
  for (int idx = tid; idx < (TH + 2) * (TW + 2); idx += TW * BY) {
    int r = idx / (TW + 2), c = idx % (TW + 2);
    int gy = by - 1 + r, gx = bx - 1 + c;
    float v = 0.0f;
    if (gy >= 0 && gy < height && gx >= 0 && gx < width) v = img[(size_t)gy * width + gx];
    tile[r][c] = v;
  }
  __syncthreads();

  int tx = threadIdx.x;
  int r0 = threadIdx.y * RPT;  // first output row (tile-local) of this thread
  float win[RPT + 2][3];
#pragma unroll
  for (int a = 0; a < RPT + 2; ++a) {
#pragma unroll
    for (int b = 0; b < 3; ++b) win[a][b] = tile[r0 + a][tx + b];
  }
  int x = bx + tx;
#pragma unroll
  for (int k = 0; k < RPT; ++k) {
    float acc = 0.0f;
#pragma unroll
    for (int a = 0; a < 3; ++a) {
#pragma unroll
      for (int b = 0; b < 3; ++b) acc += c_w[a * 3 + b] * win[k + a][b];
    }
    int y = by + r0 + k;
    if (y < height && x < width) out[(size_t)y * width + x] = acc;
  }
}

void filter3x3ZeroPad(std::vector<float> const& image, std::vector<float> const& weights,
                      std::vector<float>& result, int height, int width) {
  if (height <= 0 || width <= 0) return;
  size_t bytes = (size_t)height * (size_t)width * sizeof(float);
  float *din = nullptr, *dout = nullptr;
  cudaMalloc(&din, bytes);
  cudaMalloc(&dout, bytes);
  cudaMemcpy(din, image.data(), bytes, cudaMemcpyHostToDevice);
  cudaMemcpyToSymbol(c_w, weights.data(), 9 * sizeof(float));
  dim3 block(TW, BY);
  dim3 grid((unsigned)((width + TW - 1) / TW), (unsigned)((height + TH - 1) / TH));
  conv3x3_tiled_kernel<<<grid, block>>>(din, dout, height, width);
  cudaMemcpy(result.data(), dout, bytes, cudaMemcpyDeviceToHost);
  cudaFree(din);
  cudaFree(dout);
}
