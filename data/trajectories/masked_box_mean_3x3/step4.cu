#include <cuda_runtime.h>
#include <cstdint>

#define TX 32
#define TY 8
#define RPT 4              // output rows per thread
#define TH (TY * RPT)      // tile height: 32 rows

// Register tiling: tiles are now 32x32 and each thread produces RPT = 4
// consecutive rows of one column. It copies the 6 x 3 window it needs
// (values and mask flags) from shared memory into registers once, then
// forms its four outputs from registers; each staged cell is read about
// 1.5 times instead of 9. Summation order per output is unchanged.
__global__ void box_mean_persistent(int h, int w, int tiles_x, int ntiles, const float* __restrict__ v,
                                    const uint8_t* __restrict__ valid, float* __restrict__ out) {
  __shared__ float sv[TH + 2][TX + 2];
  __shared__ uint8_t sm[TH + 2][TX + 2];
  int tid = threadIdx.y * TX + threadIdx.x;
  for (int t = blockIdx.x; t < ntiles; t += gridDim.x) {
    int x0 = (t % tiles_x) * TX, y0 = (t / tiles_x) * TH;
    for (int e = tid; e < (TH + 2) * (TX + 2); e += TX * TY) {
      int ly = e / (TX + 2), lx = e % (TX + 2);
      int gy = y0 - 1 + ly, gx = x0 - 1 + lx;
      bool in = gy >= 0 && gy < h && gx >= 0 && gx < w;
      size_t k = in ? (size_t)gy * w + gx : 0;
      sm[ly][lx] = in ? valid[k] : 0;
      sv[ly][lx] = in ? v[k] : 0.0f;
    }
    __syncthreads();
    int ly0 = threadIdx.y * RPT;  // first of this thread's rows inside the tile
    float rv[RPT + 2][3];
    bool rm[RPT + 2][3];
#pragma unroll
    for (int r = 0; r < RPT + 2; ++r) {
#pragma unroll
      for (int d = 0; d < 3; ++d) {
        rv[r][d] = sv[ly0 + r][threadIdx.x + d];
        rm[r][d] = sm[ly0 + r][threadIdx.x + d] != 0;
      }
    }
    int x = x0 + threadIdx.x;
#pragma unroll
    for (int o = 0; o < RPT; ++o) {
      int y = y0 + ly0 + o;
      float s = 0.0f;
      int c = 0;
#pragma unroll
      for (int dy = 0; dy < 3; ++dy) {
#pragma unroll
        for (int dx = 0; dx < 3; ++dx) {
          if (rm[o + dy][dx]) {
            s += rv[o + dy][dx];
            ++c;
          }
        }
      }
      if (x < w && y < h) out[(size_t)y * w + x] = c > 0 ? s / (float)c : 0.0f;
    }
    __syncthreads();
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
  int tiles_x = (w + TX - 1) / TX, tiles_y = (h + TH - 1) / TH;
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
