#include <cuda_runtime.h>

#define THREADS 128
#define PER 4                    // particles per thread
#define CHUNK (THREADS * PER)    // 512 particles per block

struct Particle {
  float x, y, z, vx, vy, vz, mass, charge;
};

// The energy of one particle from its eight fields f[0..7] (x, y, z, vx, vy, vz, mass, charge).
__device__ __forceinline__ float field_energy(const float* f, float ex, float ey, float ez) {
  float kinetic = 0.5f * f[6] * (f[3] * f[3] + f[4] * f[4] + f[5] * f[5]);
  float work = f[7] * (ex * f[0] + ey * f[1] + ez * f[2]);
  return kinetic - work;
}

#define SLOT(k) ((k) + ((k) >> 5))

// 128 threads stage 512 particles and each computes four of them (particles
// t, t + 128, t + 256, t + 384, so every round of reads keeps the conflict-free
// lane pattern). The staging loop runs 32 independent loads per thread, and
// the block's index arithmetic and barrier are shared by four times as many
// particles; the 32 fields stay in registers.
__global__ void energy_staged_x4(int n, const Particle* __restrict__ p, float ex, float ey, float ez,
                                 float* __restrict__ energy) {
  __shared__ float stage[CHUNK * 8 + CHUNK * 8 / 32];
  int first = blockIdx.x * CHUNK;
  int count = min(CHUNK, n - first);
  const float* raw = reinterpret_cast<const float*>(p) + (size_t)first * 8;
#pragma unroll 8
  for (int k = threadIdx.x; k < count * 8; k += THREADS) stage[SLOT(k)] = raw[k];
  __syncthreads();
  float f[PER][8];
#pragma unroll
  for (int r = 0; r < PER; ++r) {
    int t = threadIdx.x + r * THREADS;
#pragma unroll
    for (int j = 0; j < 8; ++j) f[r][j] = t < count ? stage[SLOT(8 * t + j)] : 0.0f;
  }
#pragma unroll
  for (int r = 0; r < PER; ++r) {
    int t = threadIdx.x + r * THREADS;
    if (t < count) energy[first + t] = field_energy(f[r], ex, ey, ez);
  }
}

void particle_field_energy(int n, const Particle* p, float ex, float ey, float ez, float* energy) {
  if (n <= 0) return;
  Particle* d_p = nullptr;
  float* d_e = nullptr;
  cudaMalloc(&d_p, (size_t)n * sizeof(Particle));
  cudaMalloc(&d_e, (size_t)n * sizeof(float));
  cudaMemcpy(d_p, p, (size_t)n * sizeof(Particle), cudaMemcpyHostToDevice);
  energy_staged_x4<<<(n + CHUNK - 1) / CHUNK, THREADS>>>(n, d_p, ex, ey, ez, d_e);
  cudaMemcpy(energy, d_e, (size_t)n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_p);
  cudaFree(d_e);
}
