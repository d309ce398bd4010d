#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

struct Vec3d {
  double x, y, z;
};

// One thread per particle i; its position and force accumulators live in
// registers. The block walks the particles j in tiles of TILE: each tile is
// loaded cooperatively from the array-of-structs input into three
// structure-of-arrays shared buffers (conflict-free, broadcast reads), then
// every thread sweeps the tile in ascending j (the serial order). r2 is formed
// with explicitly rounded operations so the cutoff test decides exactly as in
// the serial code; 24*eps, sigma^2 and cutoff^2 are hoisted out of the loop.
#define TILE 128

__global__ void lj_cutoff_kernel(int n, const double* __restrict__ pos, double c24eps, double s2, double rc2,
                                 double* __restrict__ force) {
  __shared__ double sx[TILE], sy[TILE], sz[TILE];
  int i = blockIdx.x * TILE + threadIdx.x;
  double xi = 0.0, yi = 0.0, zi = 0.0;
  if (i < n) {
    xi = pos[3 * (size_t)i + 0];
    yi = pos[3 * (size_t)i + 1];
    zi = pos[3 * (size_t)i + 2];
  }
  double fx = 0.0, fy = 0.0, fz = 0.0;
  for (int base = 0; base < n; base += TILE) {
    int j = base + threadIdx.x;
    if (j < n) {
      sx[threadIdx.x] = pos[3 * (size_t)j + 0];
      sy[threadIdx.x] = pos[3 * (size_t)j + 1];
      sz[threadIdx.x] = pos[3 * (size_t)j + 2];
    }
    __syncthreads();
    int len = n - base < TILE ? n - base : TILE;
    if (i < n) {
#pragma unroll 4
      for (int t = 0; t < len; ++t) {
        double dx = xi - sx[t];
        double dy = yi - sy[t];
        double dz = zi - sz[t];
        double r2 = __dadd_rn(__dadd_rn(__dmul_rn(dx, dx), __dmul_rn(dy, dy)), __dmul_rn(dz, dz));
        if (r2 < rc2 && base + t != i) {
          double inv2 = 1.0 / r2;
          double sr2 = s2 * inv2;
          double sr6 = sr2 * sr2 * sr2;
          double f = c24eps * sr6 * (2.0 * sr6 - 1.0) * inv2;
          fx += f * dx;
          fy += f * dy;
          fz += f * dz;
        }
      }
    }
    __syncthreads();
  }
  if (i < n) {
    force[3 * (size_t)i + 0] = fx;
    force[3 * (size_t)i + 1] = fy;
    force[3 * (size_t)i + 2] = fz;
  }
}

void lennardJonesCutoffForces(std::vector<Vec3d> const& positions, std::vector<Vec3d>& forces, double epsilon,
                              double sigma, double cutoff) {
  size_t n = positions.size();
  if (n == 0) return;
  double *dpos = nullptr, *dforce = nullptr;
  cudaMalloc(&dpos, n * sizeof(Vec3d));
  cudaMalloc(&dforce, n * sizeof(Vec3d));
  cudaMemcpy(dpos, positions.data(), n * sizeof(Vec3d), cudaMemcpyHostToDevice);
  double rc2 = cutoff * cutoff;
  double s2 = sigma * sigma;
  double c24eps = 24.0 * epsilon;
  unsigned grid = (unsigned)((n + TILE - 1) / TILE);
  lj_cutoff_kernel<<<grid, TILE>>>((int)n, dpos, c24eps, s2, rc2, dforce);
  cudaMemcpy(forces.data(), dforce, n * sizeof(Vec3d), cudaMemcpyDeviceToHost);
  cudaFree(dpos);
  cudaFree(dforce);
}
