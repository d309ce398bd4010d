#include <cuda_runtime.h>
#include <cmath>
#include <vector>

struct Charge {
  float x, y, q;
};

#define CHUNK 3072  // float4 charges per constant-memory batch (48 KB)

__constant__ float4 c_charges[CHUNK];

// All threads of a warp read the same charge in the same iteration, which is
// exactly the access pattern constant memory broadcasts in one transaction.
// Charges are uploaded in batches of CHUNK; the first batch writes phi and
// later batches add to it (launches are ordered on the default stream).
__global__ void phi_const(int nx, int ny, float spacing, int count, int accumulate, float* __restrict__ phi) {
  int ix = blockIdx.x * blockDim.x + threadIdx.x;
  int iy = blockIdx.y * blockDim.y + threadIdx.y;
  if (ix >= nx || iy >= ny) return;
  const float soft2 = 1e-4f;
  float gx = ix * spacing, gy = iy * spacing;
  float s = 0.0f;
  for (int c = 0; c < count; ++c) {
    float4 q = c_charges[c];
    float dx = gx - q.x;
    float dy = gy - q.y;
    s += q.z / sqrtf(dx * dx + dy * dy + soft2);
  }
  size_t k = (size_t)iy * nx + ix;
  phi[k] = accumulate ? phi[k] + s : s;
}

void coulomb_potential_grid(int nx, int ny, float spacing, int nc, const Charge* charges, float* phi) {
  if (nx <= 0 || ny <= 0) return;
  size_t npts = (size_t)nx * ny;
  std::vector<float4> packed((size_t)(nc > 0 ? nc : 1));
  for (int c = 0; c < nc; ++c) packed[c] = make_float4(charges[c].x, charges[c].y, charges[c].q, 0.0f);
  float* d_phi = nullptr;
  cudaMalloc(&d_phi, npts * sizeof(float));
  dim3 block(16, 16);
  dim3 grid((unsigned)((nx + 15) / 16), (unsigned)((ny + 15) / 16));
  if (nc <= 0) {
    phi_const<<<grid, block>>>(nx, ny, spacing, 0, 0, d_phi);  // writes zeros
  }
  for (int off = 0; off < nc; off += CHUNK) {
    int count = nc - off < CHUNK ? nc - off : CHUNK;
    cudaMemcpyToSymbol(c_charges, packed.data() + off, (size_t)count * sizeof(float4));
    phi_const<<<grid, block>>>(nx, ny, spacing, count, off > 0 ? 1 : 0, d_phi);
  }
  cudaMemcpy(phi, d_phi, npts * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_phi);
}
