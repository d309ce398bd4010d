#include <cuda_runtime.h>

// The per-element division by the mass and the two multiplications by k are
// folded into one factor c = k * dt / mass computed once on the host:
// v_new = v + c * ((u[i-1] - u[i]) + (u[i+1] - u[i])). Missing neighbours at
// the free ends contribute a zero difference.
__global__ void spring_step_folded(int n, float c, float dt, const float* __restrict__ u,
                                   const float* __restrict__ v, float* __restrict__ u_new,
                                   float* __restrict__ v_new) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float ui = u[i];
  float dl = (i > 0) ? u[i - 1] - ui : 0.0f;
  float dr = (i + 1 < n) ? u[i + 1] - ui : 0.0f;
  float vn = v[i] + c * (dl + dr);
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
  float c = k * dt / mass;
  int block = 256;
  spring_step_folded<<<(n + block - 1) / block, block>>>(n, c, dt, d_u, d_v, d_un, d_vn);
  cudaMemcpy(u_new, d_un, bytes, cudaMemcpyDeviceToHost);
  cudaMemcpy(v_new, d_vn, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_u);
  cudaFree(d_v);
  cudaFree(d_un);
  cudaFree(d_vn);
}
