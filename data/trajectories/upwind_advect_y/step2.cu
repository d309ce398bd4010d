#include <cuda_runtime.h>

#define COLS 32
#define RUN 8  // rows per thread

// Each value of u was loaded by three threads (as centre, above and below).
// A thread now marches down RUN consecutive rows of one column with the
// above, centre and below values in a rolling register window, so it loads
// each u of its column once (plus one row on each side).
__global__ void advect_column(int w, int h, const float* u, const float* v, float* u_next) {
  int x = blockIdx.x * COLS + threadIdx.x;
  int y0 = (blockIdx.y * blockDim.y + threadIdx.y) * RUN;
  if (x >= w || y0 >= h) return;
  size_t k = (size_t)y0 * w + x;
  float c = u[k];
  float above = y0 > 0 ? u[k - w] : c;
  for (int r = 0; r < RUN && y0 + r < h; ++r, k += w) {
    float below = y0 + r < h - 1 ? u[k + w] : c;
    float s = v[k];
    u_next[k] = s > 0.0f ? c - s * (c - above) : c - s * (below - c);
    above = c;  // slide the window down one row
    c = below;
  }
}

void upwind_advect_y(int w, int h, const float* u, const float* v, float* u_next) {
  if (w <= 0 || h <= 0) return;
  size_t bytes = (size_t)w * h * sizeof(float);
  float *d_u = nullptr, *d_v = nullptr, *d_next = nullptr;
  cudaMalloc(&d_u, bytes);
  cudaMalloc(&d_v, bytes);
  cudaMalloc(&d_next, bytes);
  cudaMemcpy(d_u, u, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_v, v, bytes, cudaMemcpyHostToDevice);
  dim3 block(COLS, 8);
  dim3 grid((w + COLS - 1) / COLS, (h + 8 * RUN - 1) / (8 * RUN));
  advect_column<<<grid, block>>>(w, h, d_u, d_v, d_next);
  cudaMemcpy(u_next, d_next, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_u);
  cudaFree(d_v);
  cudaFree(d_next);
}
