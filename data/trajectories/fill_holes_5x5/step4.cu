#include <cuda_runtime.h>
#include <cstdint>

#define BX 32
#define BY 8
#define R 2
#define SW (BX + 2 * R)
#define SH (BY + 2 * R)

__constant__ float c_weights[25];

// Every pixel and validity flag is read by up to 25 threads from global
// memory, with clamping on each read. The block stages its 36 x 12 window of
// values and of flags (invalid pixels stored as value 0 with flag 0) in shared
// memory, clamping once while loading; the window loops then read only shared
// memory.
__global__ void holes_tiled(int w, int h, const float* __restrict__ img, const uint8_t* __restrict__ valid,
                            float* __restrict__ out) {
  __shared__ float val_s[SH][SW];
  __shared__ uint8_t ok_s[SH][SW];
  int ox = blockIdx.x * BX, oy = blockIdx.y * BY;
  for (int r = threadIdx.y; r < SH; r += BY) {
    int gy = min(max(oy - R + r, 0), h - 1);
    for (int c = threadIdx.x; c < SW; c += BX) {
      size_t g = (size_t)gy * w + min(max(ox - R + c, 0), w - 1);
      ok_s[r][c] = valid[g];
      val_s[r][c] = valid[g] ? img[g] : 0.0f;
    }
  }
  __syncthreads();
  int x = ox + threadIdx.x, y = oy + threadIdx.y;
  if (x >= w || y >= h) return;
  float n = 0.0f, d = 0.0f;
  for (int dy = 0; dy <= 2 * R; ++dy) {
    for (int dx = 0; dx <= 2 * R; ++dx) {
      if (ok_s[threadIdx.y + dy][threadIdx.x + dx]) {
        float wt = c_weights[dy * 5 + dx];
        n += wt * val_s[threadIdx.y + dy][threadIdx.x + dx];
        d += wt;
      }
    }
  }
  size_t i = (size_t)y * w + x;
  out[i] = ok_s[threadIdx.y + R][threadIdx.x + R] ? val_s[threadIdx.y + R][threadIdx.x + R] : (d > 0.0f ? n / d : 0.0f);
}

void fill_holes_5x5(int w, int h, const float* img, const uint8_t* valid, const float* weights, float* out) {
  if (w <= 0 || h <= 0) return;
  size_t pixels = (size_t)w * h;
  float *d_img = nullptr, *d_out = nullptr;
  uint8_t* d_valid = nullptr;
  cudaMalloc(&d_img, pixels * sizeof(float));
  cudaMalloc(&d_valid, pixels);
  cudaMalloc(&d_out, pixels * sizeof(float));
  cudaMemcpy(d_img, img, pixels * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_valid, valid, pixels, cudaMemcpyHostToDevice);
  cudaMemcpyToSymbol(c_weights, weights, 25 * sizeof(float));
  dim3 block(BX, BY);
  dim3 grid((w + BX - 1) / BX, (h + BY - 1) / BY);
  holes_tiled<<<grid, block>>>(w, h, d_img, d_valid, d_out);
  cudaMemcpy(out, d_out, pixels * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_img);
  cudaFree(d_valid);
  cudaFree(d_out);
}
