#include <cuda_runtime.h>
#include <cmath>

#define BLOCK 256

// Thread per charge i as before; the block's partial energies are combined in
// a shared-memory tree (8 halving steps) and one atomicAdd per block updates
// the total. Threads past n contribute 0 so every thread reaches the barriers.
__global__ void coul_rows(int n, const double* x, const double* y, const double* z, const double* q, double* u) {
  __shared__ double buf[BLOCK];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double s = 0.0;
  if (i < n) {
    double xi = x[i], yi = y[i], zi = z[i], qi = q[i];
    for (int j = i + 1; j < n; ++j) {
      double dx = xi - x[j], dy = yi - y[j], dz = zi - z[j];
      s += qi * q[j] / sqrt(dx * dx + dy * dy + dz * dz);
    }
  }
  buf[threadIdx.x] = s;
  __syncthreads();
  for (int half = BLOCK / 2; half > 0; half >>= 1) {
    if (threadIdx.x < half) buf[threadIdx.x] += buf[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(u, buf[0]);
}

double coulomb_energy(int n, const double* x, const double* y, const double* z, const double* q) {
  if (n < 2) return 0.0;
  size_t bytes = (size_t)n * sizeof(double);
  double *d_x = nullptr, *d_y = nullptr, *d_z = nullptr, *d_q = nullptr, *d_u = nullptr;
  cudaMalloc(&d_x, bytes);
  cudaMalloc(&d_y, bytes);
  cudaMalloc(&d_z, bytes);
  cudaMalloc(&d_q, bytes);
  cudaMalloc(&d_u, sizeof(double));
  cudaMemcpy(d_x, x, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_y, y, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_z, z, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_q, q, bytes, cudaMemcpyHostToDevice);
  cudaMemset(d_u, 0, sizeof(double));
  coul_rows<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(n, d_x, d_y, d_z, d_q, d_u);
  double u = 0.0;
  cudaMemcpy(&u, d_u, sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(d_x);
  cudaFree(d_y);
  cudaFree(d_z);
  cudaFree(d_q);
  cudaFree(d_u);
  return u;
}
