#include <cuda_runtime.h>

#define BX 32
#define BY 8
#define R 3

// Both tap sets are read uniformly by every thread: constant memory broadcasts them.
__constant__ float c_kx[7];
__constant__ float c_ky[7];

// Horizontal pass with a shared tile of 8 rows x (32 + 6) columns: each input
// pixel is loaded once per block (clamped at the image edge) instead of 7 times.
__global__ void sep7_rows_const(int w, int h, const float* __restrict__ img, float* __restrict__ tmp) {
  __shared__ float tile[BY][BX + 2 * R];
  int x0 = blockIdx.x * BX - R, y0 = blockIdx.y * BY;
  int tid = threadIdx.y * BX + threadIdx.x;
  for (int t = tid; t < BY * (BX + 2 * R); t += BX * BY) {
    int ty = t / (BX + 2 * R), tx = t % (BX + 2 * R);
    int gx = min(max(x0 + tx, 0), w - 1);
    int gy = min(y0 + ty, h - 1);
    tile[ty][tx] = img[(size_t)gy * w + gx];
  }
  __syncthreads();
  int x = blockIdx.x * BX + threadIdx.x, y = y0 + threadIdx.y;
  if (x >= w || y >= h) return;
  float acc = 0.0f;
  for (int k = 0; k < 7; ++k) acc += c_kx[k] * tile[threadIdx.y][threadIdx.x + k];
  tmp[(size_t)y * w + x] = acc;
}

// Vertical pass with a shared tile of (8 + 6) rows x 32 columns.
__global__ void sep7_cols_const(int w, int h, const float* __restrict__ tmp, float* __restrict__ out) {
  __shared__ float tile[BY + 2 * R][BX];
  int x0 = blockIdx.x * BX, y0 = blockIdx.y * BY - R;
  int tid = threadIdx.y * BX + threadIdx.x;
  for (int t = tid; t < (BY + 2 * R) * BX; t += BX * BY) {
    int ty = t / BX, tx = t % BX;
    int gx = min(x0 + tx, w - 1);
    int gy = min(max(y0 + ty, 0), h - 1);
    tile[ty][tx] = tmp[(size_t)gy * w + gx];
  }
  __syncthreads();
  int x = x0 + threadIdx.x, y = blockIdx.y * BY + threadIdx.y;
  if (x >= w || y >= h) return;
  float acc = 0.0f;
  for (int k = 0; k < 7; ++k) acc += c_ky[k] * tile[threadIdx.y + k][threadIdx.x];
  out[(size_t)y * w + x] = acc;
}

void separable_filter7(int w, int h, const float* img, const float* kx, const float* ky, float* out) {
  if (w <= 0 || h <= 0) return;
  size_t bytes = (size_t)w * h * sizeof(float);
  float *d_img, *d_tmp, *d_out;
  cudaMalloc(&d_img, bytes);
  cudaMalloc(&d_tmp, bytes);
  cudaMalloc(&d_out, bytes);
  cudaMemcpy(d_img, img, bytes, cudaMemcpyHostToDevice);
  cudaMemcpyToSymbol(c_kx, kx, 7 * sizeof(float));
  cudaMemcpyToSymbol(c_ky, ky, 7 * sizeof(float));
  dim3 block(BX, BY);
  dim3 grid((w + BX - 1) / BX, (h + BY - 1) / BY);
  sep7_rows_const<<<grid, block>>>(w, h, d_img, d_tmp);
  sep7_cols_const<<<grid, block>>>(w, h, d_tmp, d_out);
  cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_img);
  cudaFree(d_tmp);
  cudaFree(d_out);
}
