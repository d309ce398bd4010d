#include <cuda_runtime.h>

#define RPT 8  // rows per thread

// One-sided / central difference along an axis, given the two neighbours and the
// centre (the unused neighbour of a border point is ignored).
__device__ __forceinline__ float diff1(int i, int n, float prev, float c, float next) {
  if (n == 1) return 0.0f;
  if (i == 0) return next - c;
  if (i == n - 1) return c - prev;
  return (next - prev) * 0.5f;
}

// Each thread marches down RPT rows of one column keeping (up, mid, down) in
// registers: every value of the column is loaded once and serves as centre,
// upper and lower neighbour; only the two horizontal neighbours are loaded per row.
__global__ void grad_column(int width, int height, const float* __restrict__ f, float* __restrict__ gx,
                            float* __restrict__ gy) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y0 = (blockIdx.y * blockDim.y + threadIdx.y) * RPT;
  if (x >= width || y0 >= height) return;
  float up = y0 > 0 ? f[(size_t)(y0 - 1) * width + x] : 0.0f;
  float mid = f[(size_t)y0 * width + x];
  for (int r = 0; r < RPT; ++r) {
    int y = y0 + r;
    if (y >= height) break;
    size_t k = (size_t)y * width + x;
    float down = y + 1 < height ? f[k + width] : 0.0f;
    float left = x > 0 ? f[k - 1] : 0.0f;
    float right = x + 1 < width ? f[k + 1] : 0.0f;
    gx[k] = diff1(x, width, left, mid, right);
    gy[k] = diff1(y, height, up, mid, down);
    up = mid;
    mid = down;
  }
}

void central_gradient(int width, int height, const float* f, float* gx, float* gy) {
  if (width <= 0 || height <= 0) return;
  size_t bytes = (size_t)width * height * sizeof(float);
  float *d_f = nullptr, *d_gx = nullptr, *d_gy = nullptr;
  cudaMalloc(&d_f, bytes);
  cudaMalloc(&d_gx, bytes);
  cudaMalloc(&d_gy, bytes);
  cudaMemcpy(d_f, f, bytes, cudaMemcpyHostToDevice);
  dim3 block(32, 8);
  int strips = (height + RPT - 1) / RPT;
  dim3 grid((width + 31) / 32, (strips + 7) / 8);
  grad_column<<<grid, block>>>(width, height, d_f, d_gx, d_gy);
  cudaMemcpy(gx, d_gx, bytes, cudaMemcpyDeviceToHost);
  cudaMemcpy(gy, d_gy, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_f);
  cudaFree(d_gx);
  cudaFree(d_gy);
}
