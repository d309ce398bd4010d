#include <cuda_runtime.h>
#include <vector>

#define BX 32
#define BY 8
#define RPT 4              // output rows per thread
#define TY (BY * RPT)      // 32 output rows per block

// Thread coarsening: a 32 x 8 block now covers a 32 x 32 tile. Each thread forms the
// vertical sums of its column for four rows with a sliding register window (each
// input row is read once per column), and produces four outputs.
__global__ void blur3_coarse(const float* __restrict__ img, float* __restrict__ out, int width, int height) {
  __shared__ float tile[TY + 2][BX + 2];
  __shared__ float vsum[TY][BX + 2];
  int x0 = blockIdx.x * BX - 1, y0 = blockIdx.y * TY - 1;
  int tid = threadIdx.y * BX + threadIdx.x;
  for (int t = tid; t < (TY + 2) * (BX + 2); t += BX * BY) {
    int ty = t / (BX + 2), tx = t % (BX + 2);
    int gx = min(max(x0 + tx, 0), width - 1);
    int gy = min(max(y0 + ty, 0), height - 1);
    tile[ty][tx] = img[(size_t)gy * width + gx];
  }
  __syncthreads();
  // vertical sums: 34 columns x 32 rows; thread column c covers rows r0..r0+3
  int r0 = threadIdx.y * RPT;
  for (int c = threadIdx.x; c < BX + 2; c += BX) {
    float a = tile[r0][c], b = tile[r0 + 1][c];
#pragma unroll
    for (int r = 0; r < RPT; ++r) {
      float d = tile[r0 + r + 2][c];
      vsum[r0 + r][c] = a + b + d;
      a = b;
      b = d;
    }
  }
  __syncthreads();
  int x = blockIdx.x * BX + threadIdx.x;
  if (x >= width) return;
#pragma unroll
  for (int r = 0; r < RPT; ++r) {
    int y = blockIdx.y * TY + r0 + r;
    if (y < height) {
      float sum = vsum[r0 + r][threadIdx.x] + vsum[r0 + r][threadIdx.x + 1] + vsum[r0 + r][threadIdx.x + 2];
      out[(size_t)y * width + x] = sum / 9.0f;
    }
  }
}

void box_blur_3x3(const std::vector<float>& img, std::vector<float>& out, int width, int height) {
  if (width <= 0 || height <= 0) return;
  size_t bytes = (size_t)width * height * sizeof(float);
  float *d_in = nullptr, *d_out = nullptr;
  cudaMalloc(&d_in, bytes);
  cudaMalloc(&d_out, bytes);
  cudaMemcpy(d_in, img.data(), bytes, cudaMemcpyHostToDevice);
  dim3 block(BX, BY);
  dim3 grid((width + BX - 1) / BX, (height + TY - 1) / TY);
  blur3_coarse<<<grid, block>>>(d_in, d_out, width, height);
  cudaMemcpy(out.data(), d_out, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_in);
  cudaFree(d_out);
}
