#include <cuda_runtime.h>

#define MAX_T 32  // fast path: templates up to 32 x 32 (constant memory + shared tile)

__constant__ float c_tmpl[MAX_T * MAX_T];

#define BX 32
#define BY 8          // thread rows per block
#define RPT 4          // output rows per thread
#define TY (BY * RPT)  // output rows per block

// Four-rows-per-thread kernel with the run-time-bounded template-column loop
// unrolled by four: the compiler batches four shared loads ahead of their
// multiply-adds and drops three quarters of the loop-control instructions.
__global__ void xcorr_rows4_unroll(const float* __restrict__ image, int iw, int ih, int tw, int th, float* __restrict__ out,
                           int ow, int oh) {
  extern __shared__ float tile[];
  int pitch = BX + tw - 1, rows = TY + th - 1;
  int x0 = blockIdx.x * BX, y0 = blockIdx.y * TY;
  int tid = threadIdx.y * BX + threadIdx.x;
  for (int t = tid; t < rows * pitch; t += BX * BY) {
    int ty = t / pitch, tx = t % pitch;
    int gx = x0 + tx, gy = y0 + ty;
    tile[t] = (gx < iw && gy < ih) ? image[(size_t)gy * iw + gx] : 0.0f;
  }
  __syncthreads();
  int r0 = threadIdx.y * RPT;
  float acc[RPT];
#pragma unroll
  for (int q = 0; q < RPT; ++q) acc[q] = 0.0f;
  // Tile row r0 + r feeds output row q with template row v = r - q; visiting r in
  // increasing order keeps each output's (v, u) summation order of the reference.
  for (int r = 0; r < th + RPT - 1; ++r) {
    const float* row = tile + (r0 + r) * pitch + threadIdx.x;
#pragma unroll 4
    for (int u = 0; u < tw; ++u) {
      float val = row[u];
#pragma unroll
      for (int q = 0; q < RPT; ++q) {
        int v = r - q;
        if (v >= 0 && v < th) acc[q] += val * c_tmpl[v * tw + u];
      }
    }
  }
  int x = x0 + threadIdx.x;
  if (x >= ow) return;
#pragma unroll
  for (int q = 0; q < RPT; ++q) {
    int y = y0 + r0 + q;
    if (y < oh) out[(size_t)y * ow + x] = acc[q];
  }
}

// Fallback for templates that do not fit in constant memory.
__global__ void xcorr_global(const float* __restrict__ image, int iw, const float* __restrict__ tmpl, int tw, int th,
                             float* __restrict__ out, int ow, int oh) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= ow || y >= oh) return;
  float acc = 0.0f;
  for (int v = 0; v < th; ++v)
    for (int u = 0; u < tw; ++u) acc += image[(y + v) * iw + x + u] * tmpl[v * tw + u];
  out[y * ow + x] = acc;
}

void match_template_xcorr(const float* image, int iw, int ih, const float* tmpl, int tw, int th, float* out) {
  int ow = iw - tw + 1, oh = ih - th + 1;
  if (ow <= 0 || oh <= 0 || tw <= 0 || th <= 0) return;
  size_t img_bytes = (size_t)iw * ih * sizeof(float);
  size_t t_bytes = (size_t)tw * th * sizeof(float);
  size_t out_bytes = (size_t)ow * oh * sizeof(float);
  float *d_img = nullptr, *d_out = nullptr;
  cudaMalloc(&d_img, img_bytes);
  cudaMalloc(&d_out, out_bytes);
  cudaMemcpy(d_img, image, img_bytes, cudaMemcpyHostToDevice);
  if (tw <= MAX_T && th <= MAX_T) {
    cudaMemcpyToSymbol(c_tmpl, tmpl, t_bytes);
    dim3 block(BX, BY);
    dim3 grid((ow + BX - 1) / BX, (oh + TY - 1) / TY);
    size_t smem = (size_t)(BX + tw - 1) * (TY + th - 1) * sizeof(float);
    xcorr_rows4_unroll<<<grid, block, smem>>>(d_img, iw, ih, tw, th, d_out, ow, oh);
  } else {
    float* d_t = nullptr;
    cudaMalloc(&d_t, t_bytes);
    cudaMemcpy(d_t, tmpl, t_bytes, cudaMemcpyHostToDevice);
    dim3 block(32, 8);
    dim3 grid((ow + 31) / 32, (oh + 7) / 8);
    xcorr_global<<<grid, block>>>(d_img, iw, d_t, tw, th, d_out, ow, oh);
    cudaFree(d_t);
  }
  cudaMemcpy(out, d_out, out_bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_img);
  cudaFree(d_out);
}
