#include <cuda_runtime.h>
#include <cmath>

#define TILE 128  // block size and tile edge

// Balanced tile-pair decomposition: block (bx, by) handles rows i of tile by
// against columns j of tile bx, and only tiles with bx >= by do work (the
// others exit at once, uniformly per block). Every off-diagonal block now does
// exactly TILE x TILE pairs, instead of early rows doing n pairs and late rows
// almost none. Within the diagonal tile only j > i counts.
__global__ void coul_tile_pairs(int n, const double* x, const double* y, const double* z, const double* q,
                                double* u) {
  if (blockIdx.x < blockIdx.y) return;
  __shared__ double sx[TILE], sy[TILE], sz[TILE], sq[TILE];
  __shared__ double buf[TILE];
  int i = blockIdx.y * TILE + threadIdx.x;
  int base = blockIdx.x * TILE;
  int j = base + threadIdx.x;
  if (j < n) {
    sx[threadIdx.x] = x[j];
    sy[threadIdx.x] = y[j];
    sz[threadIdx.x] = z[j];
    sq[threadIdx.x] = q[j];
  }
  __syncthreads();
  double s = 0.0;
  if (i < n) {
    double xi = x[i], yi = y[i], zi = z[i], qi = q[i];
    int cnt = min(TILE, n - base);
    for (int t = 0; t < cnt; ++t) {
      if (base + t <= i) continue;
      double dx = xi - sx[t], dy = yi - sy[t], dz = zi - sz[t];
      s += qi * sq[t] / sqrt(dx * dx + dy * dy + dz * dz);
    }
  }
  buf[threadIdx.x] = s;
  __syncthreads();
  for (int half = TILE / 2; half > 0; half >>= 1) {
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
  int nt = (n + TILE - 1) / TILE;
  dim3 grid((unsigned)nt, (unsigned)nt);
  coul_tile_pairs<<<grid, TILE>>>(n, d_x, d_y, d_z, d_q, d_u);
  double u = 0.0;
  cudaMemcpy(&u, d_u, sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(d_x);
  cudaFree(d_y);
  cudaFree(d_z);
  cudaFree(d_q);
  cudaFree(d_u);
  return u;
}
