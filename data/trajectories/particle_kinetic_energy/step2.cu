#include <cuda_runtime.h>

struct Particle {
  float x, y, z;
  float vx, vy, vz;
  float mass, charge;
};

__global__ void ke_kernel(int n, const Particle* __restrict__ p, float* __restrict__ ke) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Particle q = p[i];
  float v2 = q.vx * q.vx + q.vy * q.vy + q.vz * q.vz;
  ke[i] = 0.5f * q.mass * v2;
}

// Chunked pipeline: chunk k's upload, kernel and download are queued on
// stream k % kStreams, so the transfers of one chunk can overlap the kernel
// and transfers of the others. Every stream is drained and destroyed before
// the buffers are freed.
void particle_kinetic_energy(int n, const Particle* particles, float* ke) {
  if (n <= 0) return;
  Particle* dp = nullptr;
  float* dk = nullptr;
  cudaMalloc(&dp, (size_t)n * sizeof(Particle));
  cudaMalloc(&dk, (size_t)n * sizeof(float));

  const int kStreams = 4;
  const int kChunk = 1 << 18;  // particles per chunk (8 MiB of records)
  cudaStream_t streams[kStreams];
  for (int s = 0; s < kStreams; ++s) cudaStreamCreateWithFlags(&streams[s], cudaStreamNonBlocking);
  int block = 256;
  int k = 0;
  for (int off = 0; off < n; off += kChunk, ++k) {
    int len = n - off < kChunk ? n - off : kChunk;
    cudaStream_t st = streams[k % kStreams];
    cudaMemcpyAsync(dp + off, particles + off, (size_t)len * sizeof(Particle), cudaMemcpyHostToDevice, st);
    ke_kernel<<<(len + block - 1) / block, block, 0, st>>>(len, dp + off, dk + off);
    cudaMemcpyAsync(ke + off, dk + off, (size_t)len * sizeof(float), cudaMemcpyDeviceToHost, st);
  }
  for (int s = 0; s < kStreams; ++s) {
    cudaStreamSynchronize(streams[s]);
    cudaStreamDestroy(streams[s]);
  }
  cudaFree(dp);
  cudaFree(dk);
}
