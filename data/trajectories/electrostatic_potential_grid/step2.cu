#include <cuda_runtime.h>
#include <cmath>
#include <vector>

struct Charge {
  float x, y, q;
};

// Charges are repacked on the host from 12-byte {x, y, q} structs into 16-byte
// aligned float4 {x, y, q, 0}, so the kernel fetches a whole charge with one
// 128-bit load instead of three separate 4-byte loads.
__global__ void phi_f4(int nx, int ny, float spacing, int nc, const float4* __restrict__ ch, float* __restrict__ phi) {
  int ix = blockIdx.x * blockDim.x + threadIdx.x;
  int iy = blockIdx.y * blockDim.y + threadIdx.y;
  if (ix >= nx || iy >= ny) return;
  const float soft2 = 1e-4f;
  float gx = ix * spacing, gy = iy * spacing;
  float s = 0.0f;
  for (int c = 0; c < nc; ++c) {
    float4 q = ch[c];
    float dx = gx - q.x;
    float dy = gy - q.y;
    s += q.z / sqrtf(dx * dx + dy * dy + soft2);
  }
  phi[iy * nx + ix] = s;
}

void coulomb_potential_grid(int nx, int ny, float spacing, int nc, const Charge* charges, float* phi) {
  if (nx <= 0 || ny <= 0) return;
  size_t npts = (size_t)nx * ny;
  std::vector<float4> packed((size_t)(nc > 0 ? nc : 1));
  for (int c = 0; c < nc; ++c) packed[c] = make_float4(charges[c].x, charges[c].y, charges[c].q, 0.0f);
  float4* d_ch = nullptr;
  float* d_phi = nullptr;
  cudaMalloc(&d_ch, packed.size() * sizeof(float4));
  cudaMalloc(&d_phi, npts * sizeof(float));
  if (nc > 0) cudaMemcpy(d_ch, packed.data(), (size_t)nc * sizeof(float4), cudaMemcpyHostToDevice);
  dim3 block(16, 16);
  dim3 grid((unsigned)((nx + 15) / 16), (unsigned)((ny + 15) / 16));
  phi_f4<<<grid, block>>>(nx, ny, spacing, nc, d_ch, d_phi);
  cudaMemcpy(phi, d_phi, npts * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_ch);
  cudaFree(d_phi);
}
