#include <cuda_runtime.h>

// One thread per grid point.
__global__ void wave_naive(int nx, int ny, float courant2, const float* u_prev, const float* u_curr, float* u_next) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= nx || j >= ny) return;
  int k = j * nx + i;
  if (i == 0 || j == 0 || i == nx - 1 || j == ny - 1) {
    u_next[k] = 0.0f;
    return;
  }
  float c = u_curr[k];
  float lap = u_curr[k - 1] + u_curr[k + 1] + u_curr[k - nx] + u_curr[k + nx] - 4.0f * c;
  u_next[k] = 2.0f * c - u_prev[k] + courant2 * lap;
}

void wave_leapfrog_step(int nx, int ny, float courant2, const float* u_prev, const float* u_curr, float* u_next) {
  if (nx <= 0 || ny <= 0) return;
  size_t bytes = (size_t)nx * ny * sizeof(float);
  float *d_prev = nullptr, *d_curr = nullptr, *d_next = nullptr;
  cudaMalloc(&d_prev, bytes);
  cudaMalloc(&d_curr, bytes);
  cudaMalloc(&d_next, bytes);
  cudaMemcpy(d_prev, u_prev, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_curr, u_curr, bytes, cudaMemcpyHostToDevice);
  dim3 block(32, 8);
  dim3 grid((nx + 31) / 32, (ny + 7) / 8);
  wave_naive<<<grid, block>>>(nx, ny, courant2, d_prev, d_curr, d_next);
  cudaMemcpy(u_next, d_next, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_prev);
  cudaFree(d_curr);
  cudaFree(d_next);
}
