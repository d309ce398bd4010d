#include <cuda_runtime.h>
#include <cstring>

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

// Same chunked stream pipeline, but every stream owns a page-locked
// (cudaMallocHost) input and output staging slot, so its cudaMemcpyAsync
// calls are real asynchronous DMAs. The CPU fills a slot with memcpy while
// the other streams' copies and kernels run; before a slot is reused the
// stream is synchronised and the previous chunk's results are copied out.
void particle_kinetic_energy(int n, const Particle* particles, float* ke) {
  if (n <= 0) return;
  Particle* dp = nullptr;
  float* dk = nullptr;
  cudaMalloc(&dp, (size_t)n * sizeof(Particle));
  cudaMalloc(&dk, (size_t)n * sizeof(float));

  const int kStreams = 4;
  const int kChunk = 1 << 18;
  int slot = n < kChunk ? n : kChunk;
  Particle* h_in = nullptr;
  float* h_out = nullptr;
  cudaMallocHost(&h_in, (size_t)kStreams * slot * sizeof(Particle));
  cudaMallocHost(&h_out, (size_t)kStreams * slot * sizeof(float));

  cudaStream_t streams[kStreams];
  int pend_off[kStreams], pend_len[kStreams];
  for (int s = 0; s < kStreams; ++s) {
    cudaStreamCreateWithFlags(&streams[s], cudaStreamNonBlocking);
    pend_off[s] = 0;
    pend_len[s] = 0;
  }
  int block = 256;
  int k = 0;
  for (int off = 0; off < n; off += kChunk, ++k) {
    int len = n - off < kChunk ? n - off : kChunk;
    int s = k % kStreams;
    cudaStream_t st = streams[s];
    Particle* in_slot = h_in + (size_t)s * slot;
    float* out_slot = h_out + (size_t)s * slot;
    if (pend_len[s] > 0) {  // slot busy: wait for its previous chunk, then drain it
      cudaStreamSynchronize(st);
      memcpy(ke + pend_off[s], out_slot, (size_t)pend_len[s] * sizeof(float));
      pend_len[s] = 0;
    }
    memcpy(in_slot, particles + off, (size_t)len * sizeof(Particle));
    cudaMemcpyAsync(dp + off, in_slot, (size_t)len * sizeof(Particle), cudaMemcpyHostToDevice, st);
    ke_kernel<<<(len + block - 1) / block, block, 0, st>>>(len, dp + off, dk + off);
    cudaMemcpyAsync(out_slot, dk + off, (size_t)len * sizeof(float), cudaMemcpyDeviceToHost, st);
    pend_off[s] = off;
    pend_len[s] = len;
  }
  for (int s = 0; s < kStreams; ++s) {
    cudaStreamSynchronize(streams[s]);
    if (pend_len[s] > 0)
      memcpy(ke + pend_off[s], h_out + (size_t)s * slot, (size_t)pend_len[s] * sizeof(float));
    cudaStreamDestroy(streams[s]);
  }
  cudaFreeHost(h_in);
  cudaFreeHost(h_out);
  cudaFree(dp);
  cudaFree(dk);
}
