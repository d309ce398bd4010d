#include <cuda_runtime.h>
#include <cstddef>

// One thread per coordinate of the flattened 3n arrays.
__global__ void verlet_flat(size_t total, float dt, float half_dt2, const float* pos, const float* vel,
                            const float* acc, float* new_pos) {
  size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= total) return;
  new_pos[k] = pos[k] + vel[k] * dt + acc[k] * half_dt2;
}

void verlet_positions(int n, float dt, const float* pos, const float* vel, const float* acc, float* new_pos) {
  if (n <= 0) return;
  size_t total = (size_t)n * 3;
  size_t bytes = total * sizeof(float);
  float half_dt2 = 0.5f * dt * dt;
  float *d_p = nullptr, *d_v = nullptr, *d_a = nullptr, *d_out = nullptr;
  cudaMalloc(&d_p, bytes);
  cudaMalloc(&d_v, bytes);
  cudaMalloc(&d_a, bytes);
  cudaMalloc(&d_out, bytes);
  cudaMemcpy(d_p, pos, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_v, vel, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_a, acc, bytes, cudaMemcpyHostToDevice);
  int block = 256;
  verlet_flat<<<(unsigned)((total + block - 1) / block), block>>>(total, dt, half_dt2, d_p, d_v, d_a, d_out);
  cudaMemcpy(new_pos, d_out, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_p);
  cudaFree(d_v);
  cudaFree(d_a);
  cudaFree(d_out);
}
