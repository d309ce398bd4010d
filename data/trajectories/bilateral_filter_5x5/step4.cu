#include <cuda_runtime.h>
#include <cmath>
#include <cstddef>

#define BX 32
#define BY 8
#define RPT 4          // output rows per thread
#define TH (BY * RPT)  // output rows per block

__constant__ float c_ws[25];

// Each thread produces 4 vertically consecutive outputs. Their 5x5 windows
// cover an 8 x 5 patch together, so the thread walks the 8 patch rows once,
// loads the 5 values of a row into registers and applies them to every output
// whose window contains that row (up to 4), instead of loading 4 x 25 values.
// Taps are still accumulated in row-major order per output.
__global__ void bilateral_regtile(int w, int h, float inv_r, const float* __restrict__ img,
                                  float* __restrict__ out) {
  int x = blockIdx.x * BX + threadIdx.x;
  int yb = blockIdx.y * TH + threadIdx.y * RPT;  // first output row of this thread
  int xs[5];
  for (int k = 0; k < 5; ++k) xs[k] = min(max(x + k - 2, 0), w - 1);
  float c[RPT], num[RPT], den[RPT];
  for (int a = 0; a < RPT; ++a) {
    c[a] = img[(size_t)min(yb + a, h - 1) * w + xs[2]];
    num[a] = 0.0f;
    den[a] = 0.0f;
  }
  for (int pr = 0; pr < RPT + 4; ++pr) {
    int yy = min(max(yb - 2 + pr, 0), h - 1);
    float v[5];
    for (int k = 0; k < 5; ++k) v[k] = img[(size_t)yy * w + xs[k]];
    for (int a = 0; a < RPT; ++a) {
      int dy = pr - a;  // tap row of this patch row for output a
      if (dy < 0 || dy > 4) continue;
      for (int k = 0; k < 5; ++k) {
        float d = v[k] - c[a];
        float wt = c_ws[dy * 5 + k] * __expf(-(d * d) * inv_r);
        num[a] += wt * v[k];
        den[a] += wt;
      }
    }
  }
  for (int a = 0; a < RPT; ++a) {
    int y = yb + a;
    if (x < w && y < h) out[(size_t)y * w + x] = __fdividef(num[a], den[a]);
  }
}

void bilateral5(int w, int h, float sigma_s, float sigma_r, const float* img, float* out) {
  if (w <= 0 || h <= 0) return;
  size_t bytes = (size_t)w * h * sizeof(float);
  float *d_img, *d_out;
  cudaMalloc(&d_img, bytes);
  cudaMalloc(&d_out, bytes);
  cudaMemcpy(d_img, img, bytes, cudaMemcpyHostToDevice);
  const float inv_s = 1.0f / (2.0f * sigma_s * sigma_s);
  const float inv_r = 1.0f / (2.0f * sigma_r * sigma_r);
  float ws[25];  // spatial weights, identical for every pixel
  for (int dy = -2; dy <= 2; ++dy)
    for (int dx = -2; dx <= 2; ++dx)
      ws[(dy + 2) * 5 + (dx + 2)] = std::exp(-(float)(dx * dx + dy * dy) * inv_s);
  cudaMemcpyToSymbol(c_ws, ws, sizeof(ws));
  dim3 block(BX, BY);
  dim3 grid((w + BX - 1) / BX, (h + TH - 1) / TH);
  bilateral_regtile<<<grid, block>>>(w, h, inv_r, d_img, d_out);
  cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_img);
  cudaFree(d_out);
}
