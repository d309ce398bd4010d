#include <cuda_runtime.h>

// One thread per mass: the same force and update formulas as the serial loop.
__global__ void spring_step(int n, float k, float mass, float dt, const float* u, const float* v, float* u_new,
                            float* v_new) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float ui = u[i];
  float f = 0.0f;
  if (i > 0) f += k * (u[i - 1] - ui);
  if (i + 1 < n) f += k * (u[i + 1] - ui);
  float a = f / mass;
  float vn = v[i] + dt * a;
  v_new[i] = vn;
  u_new[i] = ui + dt * vn;
}

void spring_chain_step(int n, float k, float mass, float dt, const float* u, const float* v, float* u_new,
                       float* v_new) {
  if (n <= 0) return;
  size_t bytes = (size_t)n * sizeof(float);
  float *d_u = nullptr, *d_v = nullptr, *d_un = nullptr, *d_vn = nullptr;
  cudaMalloc(&d_u, bytes);
  cudaMalloc(&d_v, bytes);
  cudaMalloc(&d_un, bytes);
  cudaMalloc(&d_vn, bytes);
  cudaMemcpy(d_u, u, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_v, v, bytes, cudaMemcpyHostToDevice);
  int block = 256;
  spring_step<<<(n + block - 1) / block, block>>>(n, k, mass, dt, d_u, d_v, d_un, d_vn);
  cudaMemcpy(u_new, d_un, bytes, cudaMemcpyDeviceToHost);
  cudaMemcpy(v_new, d_vn, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_u);
  cudaFree(d_v);
  cudaFree(d_un);
  cudaFree(d_vn);
}
