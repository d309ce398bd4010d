#include <cuda_runtime.h>
#include <cstddef>

// Lattice tables in constant memory: every thread reads the same entry at the
// same time, which the constant cache broadcasts to the whole warp.
__constant__ float d_w[9] = {4.0f / 9.0f, 1.0f / 9.0f, 1.0f / 9.0f, 1.0f / 9.0f, 1.0f / 9.0f,
                           1.0f / 36.0f, 1.0f / 36.0f, 1.0f / 36.0f, 1.0f / 36.0f};
__constant__ int d_ex[9] = {0, 1, 0, -1, 0, 1, -1, -1, 1};
__constant__ int d_ey[9] = {0, 0, 1, 0, -1, 1, 1, -1, -1};

// One thread per cell.
__global__ void lbm_collide_cell(int ncells, float omega, const float* f_in, float* f_out) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= ncells) return;
  const float* f = f_in + (size_t)c * 9;
  float* out = f_out + (size_t)c * 9;
  float rho = 0.0f, jx = 0.0f, jy = 0.0f;
  for (int i = 0; i < 9; ++i) {
    rho += f[i];
    jx += d_ex[i] * f[i];
    jy += d_ey[i] * f[i];
  }
  float ux = jx / rho, uy = jy / rho;
  float usq = ux * ux + uy * uy;
  for (int i = 0; i < 9; ++i) {
    float eu = d_ex[i] * ux + d_ey[i] * uy;
    float feq = d_w[i] * rho * (1.0f + 3.0f * eu + 4.5f * eu * eu - 1.5f * usq);
    out[i] = f[i] - omega * (f[i] - feq);
  }
}

void lbm_bgk_collide(int ncells, float omega, const float* f_in, float* f_out) {
  if (ncells <= 0) return;
  size_t bytes = (size_t)ncells * 9 * sizeof(float);
  float *d_in = nullptr, *d_out = nullptr;
  cudaMalloc(&d_in, bytes);
  cudaMalloc(&d_out, bytes);
  cudaMemcpy(d_in, f_in, bytes, cudaMemcpyHostToDevice);
  int block = 128;
  lbm_collide_cell<<<(ncells + block - 1) / block, block>>>(ncells, omega, d_in, d_out);
  cudaMemcpy(f_out, d_out, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_in);
  cudaFree(d_out);
}
