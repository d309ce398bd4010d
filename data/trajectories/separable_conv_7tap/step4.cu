#include <cuda_runtime.h>

#define BX 32
#define BYT 8             // thread rows per block
#define RPT 1             // output rows per thread
#define TY (BYT * RPT)        // output rows per block
#define R 3
#define IN_ROWS (TY + 2 * R)
#define NT (BX * BYT)

__constant__ float c_kx[7];
__constant__ float c_ky[7];

// Both passes in one kernel: the block loads a (8 + 6) x (32 + 6) image window,
// filters its rows horizontally into a shared (8 + 6) x 32 tile, and filters that
// tile vertically. The intermediate image never touches DRAM and one launch remains.
__global__ void sep7_fused(int w, int h, const float* __restrict__ img, float* __restrict__ out) {
  __shared__ float in[IN_ROWS][BX + 2 * R];  // image rows y0-3 .. y0+TY+2, columns x0-3 .. x0+34 (clamped)
  __shared__ float rowf[IN_ROWS][BX];        // horizontally filtered rows
  int x0 = blockIdx.x * BX, y0 = blockIdx.y * TY;
  int tid = threadIdx.y * BX + threadIdx.x;
  for (int t = tid; t < IN_ROWS * (BX + 2 * R); t += NT) {
    int ty = t / (BX + 2 * R), tx = t % (BX + 2 * R);
    int gx = min(max(x0 - R + tx, 0), w - 1);
    int gy = min(max(y0 - R + ty, 0), h - 1);
    in[ty][tx] = img[(size_t)gy * w + gx];
  }
  __syncthreads();
  // Row r of the tile holds image row clamp(y0 - 3 + r), so its filtered values are
  // exactly the intermediate rows the reference's clamped vertical pass reads.
  for (int t = tid; t < IN_ROWS * BX; t += NT) {
    int ty = t / BX, tx = t % BX;
    float acc = 0.0f;
    for (int k = 0; k < 7; ++k) acc += c_kx[k] * in[ty][tx + k];
    rowf[ty][tx] = acc;
  }
  __syncthreads();
  int x = x0 + threadIdx.x, y = y0 + threadIdx.y;
  if (x >= w || y >= h) return;
  float acc = 0.0f;
  for (int k = 0; k < 7; ++k) acc += c_ky[k] * rowf[threadIdx.y + k][threadIdx.x];
  out[(size_t)y * w + x] = acc;
}

void separable_filter7(int w, int h, const float* img, const float* kx, const float* ky, float* out) {
  if (w <= 0 || h <= 0) return;
  size_t bytes = (size_t)w * h * sizeof(float);
  float *d_img = nullptr, *d_out = nullptr;
  cudaMalloc(&d_img, bytes);
  cudaMalloc(&d_out, bytes);
  cudaMemcpy(d_img, img, bytes, cudaMemcpyHostToDevice);
  cudaMemcpyToSymbol(c_kx, kx, 7 * sizeof(float));
  cudaMemcpyToSymbol(c_ky, ky, 7 * sizeof(float));
  dim3 block(BX, BYT);
  dim3 grid((w + BX - 1) / BX, (h + TY - 1) / TY);
  sep7_fused<<<grid, block>>>(w, h, d_img, d_out);
  cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_img);
  cudaFree(d_out);
}
