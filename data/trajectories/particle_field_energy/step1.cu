#include <cuda_runtime.h>

struct Particle {
  float x, y, z, vx, vy, vz, mass, charge;
};

// One thread per particle, reading its structure field by field.
__global__ void energy_thread(int n, const Particle* p, float ex, float ey, float ez, float* energy) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Particle q = p[i];
  float kinetic = 0.5f * q.mass * (q.vx * q.vx + q.vy * q.vy + q.vz * q.vz);
  float work = q.charge * (ex * q.x + ey * q.y + ez * q.z);
  energy[i] = kinetic - work;
}

void particle_field_energy(int n, const Particle* p, float ex, float ey, float ez, float* energy) {
  if (n <= 0) return;
  Particle* d_p = nullptr;
  float* d_e = nullptr;
  cudaMalloc(&d_p, (size_t)n * sizeof(Particle));
  cudaMalloc(&d_e, (size_t)n * sizeof(float));
  cudaMemcpy(d_p, p, (size_t)n * sizeof(Particle), cudaMemcpyHostToDevice);
  energy_thread<<<(n + 255) / 256, 256>>>(n, d_p, ex, ey, ez, d_e);
  cudaMemcpy(energy, d_e, (size_t)n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_p);
  cudaFree(d_e);
}
