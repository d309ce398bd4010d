#include <cuda_runtime.h>
#include <cmath>

// One thread per charge i: it sums the pairs (i, j > i) and adds its partial
// energy to the total with one double atomicAdd.
__global__ void coul_rows(int n, const double* x, const double* y, const double* z, const double* q, double* u) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double xi = x[i], yi = y[i], zi = z[i], qi = q[i];
  double s = 0.0;
  for (int j = i + 1; j < n; ++j) {
    double dx = xi - x[j], dy = yi - y[j], dz = zi - z[j];
    s += qi * q[j] / sqrt(dx * dx + dy * dy + dz * dz);
  }
  atomicAdd(u, s);
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
  int block = 256;
  coul_rows<<<(n + block - 1) / block, block>>>(n, d_x, d_y, d_z, d_q, d_u);
  double u = 0.0;
  cudaMemcpy(&u, d_u, sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(d_x);
  cudaFree(d_y);
  cudaFree(d_z);
  cudaFree(d_q);
  cudaFree(d_u);
  return u;
}
