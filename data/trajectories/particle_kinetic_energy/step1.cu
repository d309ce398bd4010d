#include <cuda_runtime.h>

struct Particle {
  float x, y, z;
  float vx, vy, vz;
  float mass, charge;
};

// One thread per particle record.
__global__ void ke_kernel(int n, const Particle* p, float* ke) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Particle q = p[i];
  float v2 = q.vx * q.vx + q.vy * q.vy + q.vz * q.vz;
  ke[i] = 0.5f * q.mass * v2;
}

void particle_kinetic_energy(int n, const Particle* particles, float* ke) {
  if (n <= 0) return;
  Particle* dp = nullptr;
  float* dk = nullptr;
  cudaMalloc(&dp, (size_t)n * sizeof(Particle));
  cudaMalloc(&dk, (size_t)n * sizeof(float));
  cudaMemcpy(dp, particles, (size_t)n * sizeof(Particle), cudaMemcpyHostToDevice);
  int block = 256;
  ke_kernel<<<(n + block - 1) / block, block>>>(n, dp, dk);
  cudaMemcpy(ke, dk, (size_t)n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(dp);
  cudaFree(dk);
}
