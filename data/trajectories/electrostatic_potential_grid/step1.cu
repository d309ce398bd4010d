#include <cuda_runtime.h>
#include <cmath>

struct Charge {
  float x, y, q;
};

// One thread per grid point, looping over the charges (12-byte structs) in
// global memory.
__global__ void phi_naive(int nx, int ny, float spacing, int nc, const Charge* charges, float* phi) {
  int ix = blockIdx.x * blockDim.x + threadIdx.x;
  int iy = blockIdx.y * blockDim.y + threadIdx.y;
  if (ix >= nx || iy >= ny) return;
  const float soft2 = 1e-4f;
  float gx = ix * spacing, gy = iy * spacing;
  float s = 0.0f;
  for (int c = 0; c < nc; ++c) {
    float dx = gx - charges[c].x;
    float dy = gy - charges[c].y;
    s += charges[c].q / sqrtf(dx * dx + dy * dy + soft2);
  }
  phi[iy * nx + ix] = s;
}

void coulomb_potential_grid(int nx, int ny, float spacing, int nc, const Charge* charges, float* phi) {
  if (nx <= 0 || ny <= 0) return;
  size_t npts = (size_t)nx * ny;
  Charge* d_ch = nullptr;
  float* d_phi = nullptr;
  cudaMalloc(&d_ch, (size_t)(nc > 0 ? nc : 1) * sizeof(Charge));
  cudaMalloc(&d_phi, npts * sizeof(float));
  if (nc > 0) cudaMemcpy(d_ch, charges, (size_t)nc * sizeof(Charge), cudaMemcpyHostToDevice);
  dim3 block(16, 16);
  dim3 grid((unsigned)((nx + 15) / 16), (unsigned)((ny + 15) / 16));
  phi_naive<<<grid, block>>>(nx, ny, spacing, nc, d_ch, d_phi);
  cudaMemcpy(phi, d_phi, npts * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_ch);
  cudaFree(d_phi);
}
