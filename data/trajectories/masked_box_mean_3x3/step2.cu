#include <cuda_runtime.h>
#include <cstdint>

#define TX 32
#define TY 8

// Persistent kernel: only as many 32x8 blocks as can be resident at once are
// launched, and each walks the grid's tiles t = blockIdx.x, blockIdx.x +
// gridDim.x, ... (tiles have equal cost, so a static round-robin balances).
__global__ void box_mean_persistent(int h, int w, int tiles_x, int ntiles, const float* __restrict__ v,
                                    const uint8_t* __restrict__ valid, float* __restrict__ out) {
  for (int t = blockIdx.x; t < ntiles; t += gridDim.x) {
    int x = (t % tiles_x) * TX + threadIdx.x;
    int y = (t / tiles_x) * TY + threadIdx.y;
    if (x >= w || y >= h) continue;
    float s = 0.0f;
    int c = 0;
    for (int dy = -1; dy <= 1; ++dy) {
      for (int dx = -1; dx <= 1; ++dx) {
        int yy = y + dy, xx = x + dx;
        if (yy < 0 || yy >= h || xx < 0 || xx >= w) continue;
        size_t k = (size_t)yy * w + xx;
        if (valid[k]) {
          s += v[k];
          ++c;
        }
      }
    }
    out[(size_t)y * w + x] = c > 0 ? s / (float)c : 0.0f;
  }
}

void masked_box_mean_3x3(int h, int w, const float* v, const uint8_t* valid, float* out) {
  if (h <= 0 || w <= 0) return;
  size_t cells = (size_t)h * w;
  float *dv = nullptr, *dout = nullptr;
  uint8_t* dm = nullptr;
  cudaMalloc(&dv, cells * sizeof(float));
  cudaMalloc(&dm, cells);
  cudaMalloc(&dout, cells * sizeof(float));
  cudaMemcpy(dv, v, cells * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dm, valid, cells, cudaMemcpyHostToDevice);
  int tiles_x = (w + TX - 1) / TX, tiles_y = (h + TY - 1) / TY;
  int ntiles = tiles_x * tiles_y;
  int dev = 0, sms = 0, per_sm = 0;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, box_mean_persistent, TX * TY, 0);
  if (sms < 1) sms = 1;
  if (per_sm < 1) per_sm = 1;
  int grid = sms * per_sm;
  if (grid > ntiles) grid = ntiles;
  box_mean_persistent<<<grid, dim3(TX, TY)>>>(h, w, tiles_x, ntiles, dv, dm, dout);
  cudaMemcpy(out, dout, cells * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(dv);
  cudaFree(dm);
  cudaFree(dout);
}
