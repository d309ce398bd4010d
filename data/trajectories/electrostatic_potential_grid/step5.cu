#include <cuda_runtime.h>
#include <cmath>
#include <vector>

struct Charge {
  float x, y, q;
};

#define CHUNK 3072  // float4 charges per constant-memory batch (48 KB)

__constant__ float4 c_charges[CHUNK];

#define PX 4        // grid points per thread along x
#define BX 32
#define BY 8

// Register tiling: each thread owns PX grid points of one row, spaced BX apart
// (so a warp's stores stay contiguous). A charge read from constant memory and
// its dy^2 term are reused for all PX points, and the PX sums live in
// registers.
__global__ void phi_const_rt(int nx, int ny, float spacing, int count, int accumulate, float* __restrict__ phi) {
  int iy = blockIdx.y * BY + threadIdx.y;
  int ix0 = blockIdx.x * (BX * PX) + threadIdx.x;
  if (iy >= ny || ix0 >= nx) return;
  const float soft2 = 1e-4f;
  float gy = iy * spacing;
  float gx[PX], s[PX];
#pragma unroll
  for (int k = 0; k < PX; ++k) {
    gx[k] = (ix0 + k * BX) * spacing;
    s[k] = 0.0f;
  }
  for (int c = 0; c < count; ++c) {
    float4 q = c_charges[c];
    float dy = gy - q.y;
    float dy2 = dy * dy + soft2;
#pragma unroll
    for (int k = 0; k < PX; ++k) {
      float dx = gx[k] - q.x;
      s[k] += q.z * rsqrtf(dx * dx + dy2);
    }
  }
#pragma unroll
  for (int k = 0; k < PX; ++k) {
    int ix = ix0 + k * BX;
    if (ix < nx) {
      size_t idx = (size_t)iy * nx + ix;
      phi[idx] = accumulate ? phi[idx] + s[k] : s[k];
    }
  }
}

void coulomb_potential_grid(int nx, int ny, float spacing, int nc, const Charge* charges, float* phi) {
  if (nx <= 0 || ny <= 0) return;
  size_t npts = (size_t)nx * ny;
  std::vector<float4> packed((size_t)(nc > 0 ? nc : 1));
  for (int c = 0; c < nc; ++c) packed[c] = make_float4(charges[c].x, charges[c].y, charges[c].q, 0.0f);
  float* d_phi = nullptr;
  cudaMalloc(&d_phi, npts * sizeof(float));
  dim3 block(BX, BY);
  dim3 grid((unsigned)((nx + BX * PX - 1) / (BX * PX)), (unsigned)((ny + BY - 1) / BY));
  if (nc <= 0) {
    phi_const_rt<<<grid, block>>>(nx, ny, spacing, 0, 0, d_phi);  // writes zeros
  }
  for (int off = 0; off < nc; off += CHUNK) {
    int count = nc - off < CHUNK ? nc - off : CHUNK;
    cudaMemcpyToSymbol(c_charges, packed.data() + off, (size_t)count * sizeof(float4));
    phi_const_rt<<<grid, block>>>(nx, ny, spacing, count, off > 0 ? 1 : 0, d_phi);
  }
  cudaMemcpy(phi, d_phi, npts * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_phi);
}
