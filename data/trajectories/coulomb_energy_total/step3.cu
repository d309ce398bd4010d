#include <cuda_runtime.h>
#include <cmath>

#define BLOCK 256

// Rows i of a block visit the charges j in tiles of BLOCK that are first
// copied into shared memory (coalesced, one element of each array per
// thread); all threads then read the tile from shared memory. Tiles start at
// the block's own first row, since earlier j never pair with these rows.
__global__ void coul_rows_tiled(int n, const double* x, const double* y, const double* z, const double* q,
                                double* u) {
  __shared__ double sx[BLOCK], sy[BLOCK], sz[BLOCK], sq[BLOCK];
  __shared__ double buf[BLOCK];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool active = i < n;
  double xi = 0.0, yi = 0.0, zi = 0.0, qi = 0.0;
  if (active) {
    xi = x[i];
    yi = y[i];
    zi = z[i];
    qi = q[i];
  }
  double s = 0.0;
  for (int base = blockIdx.x * BLOCK; base < n; base += BLOCK) {
    int j = base + threadIdx.x;
    if (j < n) {
      sx[threadIdx.x] = x[j];
      sy[threadIdx.x] = y[j];
      sz[threadIdx.x] = z[j];
      sq[threadIdx.x] = q[j];
    }
    __syncthreads();
    int cnt = min(BLOCK, n - base);
    if (active) {
      for (int t = 0; t < cnt; ++t) {
        if (base + t <= i) continue;
        double dx = xi - sx[t], dy = yi - sy[t], dz = zi - sz[t];
        s += qi * sq[t] / sqrt(dx * dx + dy * dy + dz * dz);
      }
    }
    __syncthreads();
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
  coul_rows_tiled<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(n, d_x, d_y, d_z, d_q, d_u);
  double u = 0.0;
  cudaMemcpy(&u, d_u, sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(d_x);
  cudaFree(d_y);
  cudaFree(d_z);
  cudaFree(d_q);
  cudaFree(d_u);
  return u;
}
