#include <cuda_runtime.h>
#include <cstddef>

#define BX 32   // lanes per warp (one warp per image row)
#define BY 8    // warps (rows) per block
#define OPT 4   // outputs per thread
#define SEG (BX * OPT)  // columns per warp segment (128)
#define R 5

// Each warp owns a 128-column segment of one row: it stages 128 + 10 clamped
// pixels in its own shared row, synchronises at warp level only, and every
// lane computes 4 outputs (columns lane, lane+32, lane+64, lane+96, keeping
// stores coalesced and shared reads conflict-free). Each tap is loaded once
// into a register and applied to all four accumulators.
__global__ void fir11_regtile(int w, int h, const float* __restrict__ img,
                               const float* __restrict__ taps, float* __restrict__ out) {
  __shared__ float tile[BY][SEG + 2 * R];
  int lane = threadIdx.x, wy = threadIdx.y;
  int x0 = blockIdx.x * SEG;
  int y = blockIdx.y * BY + wy;
  const float* row = img + (size_t)min(y, h - 1) * w;
  for (int lx = lane; lx < SEG + 2 * R; lx += BX) tile[wy][lx] = row[min(max(x0 - R + lx, 0), w - 1)];
  __syncwarp();
  if (y >= h) return;
  float acc[OPT];
  for (int c = 0; c < OPT; ++c) acc[c] = 0.0f;
  for (int k = 0; k < 2 * R + 1; ++k) {
    float t = taps[k];
    for (int c = 0; c < OPT; ++c) acc[c] += t * tile[wy][lane + BX * c + k];
  }
  for (int c = 0; c < OPT; ++c) {
    int x = x0 + lane + BX * c;
    if (x < w) out[(size_t)y * w + x] = acc[c];
  }
}

void fir_rows11(int w, int h, const float* img, const float* taps, float* out) {
  if (w <= 0 || h <= 0) return;
  size_t bytes = (size_t)w * h * sizeof(float);
  float *d_img, *d_taps, *d_out;
  cudaMalloc(&d_img, bytes);
  cudaMalloc(&d_taps, 11 * sizeof(float));
  cudaMalloc(&d_out, bytes);
  cudaMemcpy(d_img, img, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_taps, taps, 11 * sizeof(float), cudaMemcpyHostToDevice);
  dim3 block(BX, BY);
  dim3 grid((w + SEG - 1) / SEG, (h + BY - 1) / BY);
  fir11_regtile<<<grid, block>>>(w, h, d_img, d_taps, d_out);
  cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_img);
  cudaFree(d_taps);
  cudaFree(d_out);
}
