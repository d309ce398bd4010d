#include <cuda_runtime.h>

#define STRIP 256  // pixels per strip: 32 image blocks side by side, one thread per column

// The per-coefficient kernel repeats every row transform eight times and
// reads each pixel 64 times from global memory. A 256-thread block now stages
// a strip of 32 image blocks (256 x 8 pixels) in shared memory with coalesced
// row loads, runs the row transforms into a second shared array and the
// column transforms from there.
__global__ void dct_strip(int width, const float* C, const float* img, float* out) {
  __shared__ float pix[8][STRIP];
  __shared__ float tmp[8][STRIP];
  int x0 = blockIdx.x * STRIP, y0 = blockIdx.y * 8;
  int t = threadIdx.x;
  bool in_image = x0 + t < width;
  // Stage the strip: thread t copies column t of its eight rows (coalesced).
#pragma unroll
  for (int r = 0; r < 8; ++r) pix[r][t] = in_image ? img[(size_t)(y0 + r) * width + x0 + t] : 0.0f;
  __syncthreads();
  // Row pass: thread t = 8 b + r transforms row r of image block b.
  int b = t / 8, r = t % 8;
  float row[8];
#pragma unroll
  for (int x = 0; x < 8; ++x) row[x] = pix[r][8 * b + x];
#pragma unroll
  for (int u = 0; u < 8; ++u) {
    float s = 0.0f;
#pragma unroll
    for (int x = 0; x < 8; ++x) s += C[u * 8 + x] * row[x];
    tmp[r][8 * b + u] = s;
  }
  __syncthreads();
  // Column pass: thread t = 8 b + u transforms column u of image block b and
  // writes its eight coefficients (consecutive threads, consecutive pixels).
  if (!in_image) return;
  float col[8];
#pragma unroll
  for (int y = 0; y < 8; ++y) col[y] = tmp[y][t];
#pragma unroll
  for (int v = 0; v < 8; ++v) {
    float s = 0.0f;
#pragma unroll
    for (int y = 0; y < 8; ++y) s += C[v * 8 + y] * col[y];
    out[(size_t)(y0 + v) * width + x0 + t] = s;
  }
}

void block_dct8(int bw, int bh, const float* C, const float* img, float* out) {
  if (bw <= 0 || bh <= 0) return;
  int width = 8 * bw, height = 8 * bh;
  size_t bytes = (size_t)width * height * sizeof(float);
  float *d_C = nullptr, *d_img = nullptr, *d_out = nullptr;
  cudaMalloc(&d_C, 64 * sizeof(float));
  cudaMalloc(&d_img, bytes);
  cudaMalloc(&d_out, bytes);
  cudaMemcpy(d_C, C, 64 * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_img, img, bytes, cudaMemcpyHostToDevice);
  dim3 grid((width + STRIP - 1) / STRIP, bh);
  dct_strip<<<grid, STRIP>>>(width, d_C, d_img, d_out);
  cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_C);
  cudaFree(d_img);
  cudaFree(d_out);
}
