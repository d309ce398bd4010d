#include <cuda_runtime.h>
#include <cmath>

struct Body {
  float x, y, z, m;
};

// One thread per body i, looping over all other bodies in global memory.
__global__ void pe_naive(int n, const Body* bodies, float eps2, float* energy) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Body bi = bodies[i];
  float s = 0.0f;
  for (int j = 0; j < n; ++j) {
    if (j == i) continue;
    float dx = bodies[j].x - bi.x;
    float dy = bodies[j].y - bi.y;
    float dz = bodies[j].z - bi.z;
    float r2 = dx * dx + dy * dy + dz * dz + eps2;
    s += bodies[j].m / sqrtf(r2);
  }
  energy[i] = -bi.m * s;
}

void softened_potential_energy(int n, const Body* bodies, float eps, float* energy) {
  if (n <= 0) return;
  float eps2 = eps * eps;
  Body* d_b = nullptr;
  float* d_e = nullptr;
  cudaMalloc(&d_b, (size_t)n * sizeof(Body));
  cudaMalloc(&d_e, (size_t)n * sizeof(float));
  cudaMemcpy(d_b, bodies, (size_t)n * sizeof(Body), cudaMemcpyHostToDevice);
  int block = 256;
  pe_naive<<<(n + block - 1) / block, block>>>(n, d_b, eps2, d_e);
  cudaMemcpy(energy, d_e, (size_t)n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_b);
  cudaFree(d_e);
}
