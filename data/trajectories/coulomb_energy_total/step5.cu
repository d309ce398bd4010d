#include <cuda_runtime.h>
#include <cmath>

#define TILE 128  // block size and tile edge

// Balanced tile pairs (blocks with bx >= by, each TILE x TILE pairs from a
// shared-memory tile); the block's partial energy is now reduced with warp
// shuffles instead of a 7-level shared-memory tree.
__global__ void coul_tile_pairs(int n, const double* x, const double* y, const double* z, const double* q,
                                double* u) {
  if (blockIdx.x < blockIdx.y) return;
  __shared__ double sx[TILE], sy[TILE], sz[TILE], sq[TILE];
  __shared__ double warp_tot[TILE / 32];
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
  // Shuffle reduction: 5 register steps per warp, then the 4 warp totals.
  for (int off = 16; off > 0; off >>= 1) s += __shfl_down_sync(0xffffffffu, s, off);
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) warp_tot[warp] = s;
  __syncthreads();
  if (warp == 0) {
    s = (lane < TILE / 32) ? warp_tot[lane] : 0.0;
    for (int off = 16; off > 0; off >>= 1) s += __shfl_down_sync(0xffffffffu, s, off);
    if (lane == 0) atomicAdd(u, s);
  }
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
