#include <cuda_runtime.h>

struct MassPoint {
  float x, y, z, m;
};

// One thread per probe sums the contributions of all masses.
__global__ void potential_kernel(int np, int nb, const float* px, const float* py, const float* pz,
                                 const MassPoint* b, float s2, float* phi) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= np) return;
  float x = px[p], y = py[p], z = pz[p], acc = 0.0f;
  for (int j = 0; j < nb; ++j) {
    MassPoint bj = b[j];
    float dx = x - bj.x, dy = y - bj.y, dz = z - bj.z;
    acc += bj.m / sqrtf(dx * dx + dy * dy + dz * dz + s2);
  }
  phi[p] = -acc;
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
  int block = 256;
  potential_kernel<<<(np + block - 1) / block, block>>>(np, nb, dpx, dpy, dpz, db, s2, dphi);
  cudaMemcpy(phi, dphi, pb, cudaMemcpyDeviceToHost);
  cudaFree(dpx);
  cudaFree(dpy);
  cudaFree(dpz);
  cudaFree(dphi);
  cudaFree(db);
}
