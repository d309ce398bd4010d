#include <cuda_runtime.h>

// One thread per cell.
__global__ void diffuse_naive(int nx, int ny, float dt, const float* u, const float* kappa, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= nx || j >= ny) return;
  int k = j * nx + i;
  if (i == 0 || j == 0 || i == nx - 1 || j == ny - 1) {
    out[k] = u[k];
    return;
  }
  float kE = 0.5f * (kappa[k] + kappa[k + 1]);
  float kW = 0.5f * (kappa[k] + kappa[k - 1]);
  float kS = 0.5f * (kappa[k] + kappa[k + nx]);
  float kN = 0.5f * (kappa[k] + kappa[k - nx]);
  float flux = kE * (u[k + 1] - u[k]) - kW * (u[k] - u[k - 1]) + kS * (u[k + nx] - u[k]) - kN * (u[k] - u[k - nx]);
  out[k] = u[k] + dt * flux;
}

void diffuse_variable_coeff(int nx, int ny, float dt, const float* u, const float* kappa, float* out) {
  if (nx <= 0 || ny <= 0) return;
  size_t bytes = (size_t)nx * ny * sizeof(float);
  float *d_u = nullptr, *d_k = nullptr, *d_out = nullptr;
  cudaMalloc(&d_u, bytes);
  cudaMalloc(&d_k, bytes);
  cudaMalloc(&d_out, bytes);
  cudaMemcpy(d_u, u, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_k, kappa, bytes, cudaMemcpyHostToDevice);
  dim3 block(32, 8);
  dim3 grid((nx + 31) / 32, (ny + 7) / 8);
  diffuse_naive<<<grid, block>>>(nx, ny, dt, d_u, d_k, d_out);
  cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_u);
  cudaFree(d_k);
  cudaFree(d_out);
}
