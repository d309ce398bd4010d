#include <cuda_runtime.h>

// Step 1 (thread_mapping): thread t owns output column p = y * width + x of
// channel c (t = c * height * width + p) and a grid-stride loop covers every
// (c, p) for any image size.
// Step 2 (register_tiling): instead of one thread per output element (with a
// division-heavy index decode each), a thread decodes (c, y, x) once and
// writes all ksize * ksize entries of its column; for a fixed kernel offset a
// warp's writes go to 32 consecutive columns of one row.
__global__ void im2col_kernel(int channels, int height, int width, int ksize,
                              const float* __restrict__ img, float* __restrict__ cols) {
  const int pad = ksize / 2;
  const long long plane = (long long)height * width;
  const long long total = (long long)channels * plane;
  for (long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x; t < total;
       t += (long long)gridDim.x * blockDim.x) {
    int c = (int)(t / plane);
    long long p = t - (long long)c * plane;
    int y = (int)(p / width);
    int x = (int)(p - (long long)y * width);
    const float* src = img + (long long)c * plane;
    float* dst = cols + (long long)c * ksize * ksize * plane + p;
    for (int ky = 0; ky < ksize; ++ky) {
      int sy = y + ky - pad;
      bool row_in = sy >= 0 && sy < height;
      for (int kx = 0; kx < ksize; ++kx) {
        int sx = x + kx - pad;
        float v =
            (row_in && sx >= 0 && sx < width) ? __ldg(&src[(long long)sy * width + sx]) : 0.0f;
        *dst = v;
        dst += plane;
      }
    }
  }
}

void im2colSamePad(int channels, int height, int width, int ksize, const float* img, float* cols) {
  long long plane = (long long)height * width;
  long long total = (long long)channels * plane;
  if (total <= 0 || ksize <= 0) return;
  size_t in_bytes = (size_t)total * sizeof(float);
  size_t out_bytes = (size_t)total * ksize * ksize * sizeof(float);
  float *d_img = nullptr, *d_cols = nullptr;
  cudaMalloc(&d_img, in_bytes);
  cudaMalloc(&d_cols, out_bytes);
  cudaMemcpy(d_img, img, in_bytes, cudaMemcpyHostToDevice);
  const int block = 256;
  long long blocks = (total + block - 1) / block;
  int grid = (int)(blocks < 65536 ? blocks : 65536);
  im2col_kernel<<<grid, block>>>(channels, height, width, ksize, d_img, d_cols);
  cudaMemcpy(cols, d_cols, out_bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_img);
  cudaFree(d_cols);
}
