#include <cuda_runtime.h>

struct MassPoint {
  float x, y, z, m;
};

#define PPT 4  // probes per thread

// Same kernel, launched with 64-thread blocks: a block now covers 256
// probes instead of 1024, giving four times as many blocks to place on SMs.
__global__ void potential_kernel(int np, int nb, const float* __restrict__ px, const float* __restrict__ py,
                                 const float* __restrict__ pz, const MassPoint* __restrict__ b, float s2,
                                 float* __restrict__ phi) {
  int base = blockIdx.x * blockDim.x * PPT + threadIdx.x;  // probes base + k*blockDim.x
  float x[PPT], y[PPT], z[PPT], acc[PPT];
#pragma unroll
  for (int k = 0; k < PPT; ++k) {
    int p = base + k * blockDim.x;
    x[k] = p < np ? px[p] : 0.0f;
    y[k] = p < np ? py[p] : 0.0f;
    z[k] = p < np ? pz[p] : 0.0f;
    acc[k] = 0.0f;
  }
  int j0 = 0, j1 = nb;
#pragma unroll 4
  for (int j = j0; j < j1; ++j) {
    MassPoint bj = b[j];
#pragma unroll
    for (int k = 0; k < PPT; ++k) {
      float dx = x[k] - bj.x, dy = y[k] - bj.y, dz = z[k] - bj.z;
      acc[k] += bj.m / sqrtf(dx * dx + dy * dy + dz * dz + s2);
    }
  }
#pragma unroll
  for (int k = 0; k < PPT; ++k) {
    int p = base + k * blockDim.x;
    if (p < np) phi[p] = -acc[k];
  }
}

void gravity_potential_probes(int np, int nb, const float* px, const float* py, const float* pz,
                              const MassPoint* bodies, float soft, float* phi) {
  if (np <= 0) return;
  float s2 = soft * soft;
  size_t pb = (size_t)np * sizeof(float);
  float *dpx = nullptr, *dpy = nullptr, *dpz = nullptr, *dphi = nullptr;
  MassPoint* db = nullptr;
  cudaMalloc(&dpx, pb);
  cudaMalloc(&dpy, pb);
  cudaMalloc(&dpz, pb);
  cudaMalloc(&dphi, pb);
  cudaMalloc(&db, (size_t)(nb > 0 ? nb : 1) * sizeof(MassPoint));
  cudaMemcpy(dpx, px, pb, cudaMemcpyHostToDevice);
  cudaMemcpy(dpy, py, pb, cudaMemcpyHostToDevice);
  cudaMemcpy(dpz, pz, pb, cudaMemcpyHostToDevice);
  if (nb > 0) cudaMemcpy(db, bodies, (size_t)nb * sizeof(MassPoint), cudaMemcpyHostToDevice);
  int block = 64;
  int per_block = block * PPT;
  potential_kernel<<<(np + per_block - 1) / per_block, block>>>(np, nb, dpx, dpy, dpz, db, s2, dphi);
  cudaMemcpy(phi, dphi, pb, cudaMemcpyDeviceToHost);
  cudaFree(dpx);
  cudaFree(dpy);
  cudaFree(dpz);
  cudaFree(dphi);
  cudaFree(db);
}
