#include <cuda_runtime.h>

#define RPT 8  // rows per thread
#define WARPS 8

__device__ __forceinline__ float diff1(int i, int n, float prev, float c, float next) {
  if (n == 1) return 0.0f;
  if (i == 0) return next - c;
  if (i == n - 1) return c - prev;
  return (next - prev) * 0.5f;
}

// Column-marching kernel where the horizontal neighbours come from shared memory:
// every warp publishes the centre values of its current row (already in registers)
// in a private 34-entry row buffer, lanes 0 and 31 add the two halo values, and
// each lane reads its left and right neighbours from the buffer. Per row a warp
// loads 32 + 2 values from global memory instead of 3 x 32, and because each
// buffer belongs to one warp, __syncwarp is the only synchronisation needed.
__global__ void grad_column_smem(int width, int height, const float* __restrict__ f, float* __restrict__ gx,
                                 float* __restrict__ gy) {
  __shared__ float rowbuf[WARPS][32 + 2];
  int lane = threadIdx.x, w = threadIdx.y;
  int x = blockIdx.x * 32 + lane;
  int y0 = (blockIdx.y * WARPS + w) * RPT;
  if (y0 >= height) return;  // uniform per warp
  bool col_ok = x < width;
  float up = (col_ok && y0 > 0) ? f[(size_t)(y0 - 1) * width + x] : 0.0f;
  float mid = col_ok ? f[(size_t)y0 * width + x] : 0.0f;
  for (int r = 0; r < RPT; ++r) {
    int y = y0 + r;
    if (y >= height) break;  // uniform per warp
    size_t k = (size_t)y * width + x;
    float down = (col_ok && y + 1 < height) ? f[k + width] : 0.0f;
    rowbuf[w][lane + 1] = mid;
    if (lane == 0) rowbuf[w][0] = (x > 0 && x - 1 < width) ? f[k - 1] : 0.0f;
    if (lane == 31) rowbuf[w][33] = (x + 1 < width) ? f[k + 1] : 0.0f;
    __syncwarp();
    float left = rowbuf[w][lane], right = rowbuf[w][lane + 2];
    __syncwarp();  // the buffer is rewritten for the next row
    if (col_ok) {
      gx[k] = diff1(x, width, left, mid, right);
      gy[k] = diff1(y, height, up, mid, down);
    }
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
  dim3 block(32, WARPS);
  int strips = (height + RPT - 1) / RPT;
  dim3 grid((width + 31) / 32, (strips + WARPS - 1) / WARPS);
  grad_column_smem<<<grid, block>>>(width, height, d_f, d_gx, d_gy);
  cudaMemcpy(gx, d_gx, bytes, cudaMemcpyDeviceToHost);
  cudaMemcpy(gy, d_gy, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_f);
  cudaFree(d_gx);
  cudaFree(d_gy);
}
