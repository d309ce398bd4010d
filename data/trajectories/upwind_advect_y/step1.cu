#include <cuda_runtime.h>

// One thread per cell; 32-wide blocks keep each warp's loads on one row.
__global__ void advect_cell(int w, int h, const float* u, const float* v, float* u_next) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  size_t k = (size_t)y * w + x;
  float c = u[k];
  float above = y > 0 ? u[k - w] : c;
  float below = y < h - 1 ? u[k + w] : c;
  float s = v[k];
  u_next[k] = s > 0.0f ? c - s * (c - above) : c - s * (below - c);
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
  dim3 block(32, 8);
  dim3 grid((w + 31) / 32, (h + 7) / 8);
  advect_cell<<<grid, block>>>(w, h, d_u, d_v, d_next);
  cudaMemcpy(u_next, d_next, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_u);
  cudaFree(d_v);
  cudaFree(d_next);
}
