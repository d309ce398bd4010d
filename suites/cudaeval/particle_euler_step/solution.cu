#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

struct Particle {
  float x, y, z;
  float vx, vy, vz;
};

// One thread per particle; a grid-stride loop over an SM-sized grid covers any
// n. Consecutive threads touch consecutive 24-byte records, so each warp reads
// and writes one contiguous 768-byte span.
__global__ void euler_kernel(size_t n, float dt, Particle* __restrict__ p) {
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    Particle q = p[i];
    q.x += q.vx * dt;
    q.y += q.vy * dt;
    q.z += q.vz * dt;
    p[i] = q;
  }
}

void eulerAdvance(std::vector<Particle>& particles, float dt) {
  size_t n = particles.size();
  if (n == 0) return;
  size_t bytes = n * sizeof(Particle);
  Particle* d = nullptr;
  cudaMalloc(&d, bytes);
  cudaMemcpy(d, particles.data(), bytes, cudaMemcpyHostToDevice);
  int device = 0, sms = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  if (sms <= 0) sms = 80;
  const int block = 256;
  size_t needed = (n + block - 1) / block;
  size_t cap = (size_t)sms * 8;
  int grid = (int)(needed < cap ? needed : cap);
  euler_kernel<<<grid, block>>>(n, dt, d);
  cudaMemcpy(particles.data(), d, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d);
}
