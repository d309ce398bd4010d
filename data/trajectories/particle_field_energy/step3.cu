#include <cuda_runtime.h>

#define THREADS 256

struct Particle {
  float x, y, z, vx, vy, vz, mass, charge;
};

// The energy of one particle from its eight fields f[0..7] (x, y, z, vx, vy, vz, mass, charge).
__device__ __forceinline__ float field_energy(const float* f, float ex, float ey, float ez) {
  float kinetic = 0.5f * f[6] * (f[3] * f[3] + f[4] * f[4] + f[5] * f[5]);
  float work = f[7] * (ex * f[0] + ey * f[1] + ez * f[2]);
  return kinetic - work;
}

// Lane t reads stage[8t + j]: a stride of 8 floats, so the 32 lanes of a warp
// use only 4 banks and each read is replayed 8 times. Inserting one padding
// float after every 32 (slot k lives at k + k / 32) puts lane t = 4q + r in
// bank (8r + q + j) % 32: 32 different banks. The contiguous stage loop stays
// conflict-free.
#define SLOT(k) ((k) + ((k) >> 5))

__global__ void energy_staged_skewed(int n, const Particle* p, float ex, float ey, float ez, float* energy) {
  __shared__ float stage[THREADS * 8 + THREADS * 8 / 32];
  int first = blockIdx.x * THREADS;                       // first particle of the block
  int count = min(THREADS, n - first);                    // particles in this block
  const float* raw = reinterpret_cast<const float*>(p) + (size_t)first * 8;
  for (int k = threadIdx.x; k < count * 8; k += THREADS) stage[SLOT(k)] = raw[k];
  __syncthreads();
  int t = threadIdx.x;
  if (t >= count) return;
  float f[8];
#pragma unroll
  for (int j = 0; j < 8; ++j) f[j] = stage[SLOT(8 * t + j)];
  energy[first + t] = field_energy(f, ex, ey, ez);
}

void particle_field_energy(int n, const Particle* p, float ex, float ey, float ez, float* energy) {
  if (n <= 0) return;
  Particle* d_p = nullptr;
  float* d_e = nullptr;
  cudaMalloc(&d_p, (size_t)n * sizeof(Particle));
  cudaMalloc(&d_e, (size_t)n * sizeof(float));
  cudaMemcpy(d_p, p, (size_t)n * sizeof(Particle), cudaMemcpyHostToDevice);
  energy_staged_skewed<<<(n + THREADS - 1) / THREADS, THREADS>>>(n, d_p, ex, ey, ez, d_e);
  cudaMemcpy(energy, d_e, (size_t)n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_p);
  cudaFree(d_e);
}
