#include <cuda_runtime.h>
#include <cstddef>

// Step 1 (thread_mapping): the update is independent per particle and
// component, so the loop becomes a kernel.
// Step 2 (memory_coalescing): instead of one thread per particle (which reads
// three floats 12 bytes apart per array), one thread handles one component k
// of the interleaved arrays, so consecutive threads read consecutive floats;
// the particle's mass is read at k / 3 (a cached, mostly repeated address).
__global__ void kick_kernel(size_t total, float half_dt, const float* __restrict__ mass,
                            const float* __restrict__ f_old, const float* __restrict__ f_new,
                            float* __restrict__ vel) {
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x; k < total; k += stride) {
    float scale = half_dt / mass[k / 3];
    vel[k] += scale * (f_old[k] + f_new[k]);
  }
}

void velocityVerletKick(int n, float dt, const float* mass, const float* f_old, const float* f_new,
                        float* vel) {
  if (n <= 0) return;
  size_t total = (size_t)n * 3;
  size_t mbytes = (size_t)n * sizeof(float), vbytes = total * sizeof(float);
  float *dm = nullptr, *dfo = nullptr, *dfn = nullptr, *dv = nullptr;
  cudaMalloc(&dm, mbytes);
  cudaMalloc(&dfo, vbytes);
  cudaMalloc(&dfn, vbytes);
  cudaMalloc(&dv, vbytes);
  cudaMemcpy(dm, mass, mbytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dfo, f_old, vbytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dfn, f_new, vbytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dv, vel, vbytes, cudaMemcpyHostToDevice);
  int device = 0, sms = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  if (sms <= 0) sms = 80;
  const int block = 256;
  size_t needed = (total + block - 1) / block;
  size_t cap = (size_t)sms * 16;
  int grid = (int)(needed < cap ? needed : cap);
  kick_kernel<<<grid, block>>>(total, 0.5f * dt, dm, dfo, dfn, dv);
  cudaMemcpy(vel, dv, vbytes, cudaMemcpyDeviceToHost);
  cudaFree(dm);
  cudaFree(dfo);
  cudaFree(dfn);
  cudaFree(dv);
}
