#include <cuda_runtime.h>
#include <cmath>

#define TILE 64  // = block size

// Shared-memory tiles of particles: each block loads TILE positions and masses
// (four coalesced loads per thread) and every thread of the block evaluates
// the kernel against the whole tile from shared memory. Padding entries past
// n get zero mass, so they add exactly 0.
__global__ void sph_density_tiled(int n, const float* __restrict__ px, const float* __restrict__ py,
                                  const float* __restrict__ pz, const float* __restrict__ mass, float h, float sigma,
                                  float* __restrict__ rho) {
  __shared__ float sx[TILE], sy[TILE], sz[TILE], sm[TILE];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float xi = 0.0f, yi = 0.0f, zi = 0.0f;
  if (i < n) {
    xi = px[i];
    yi = py[i];
    zi = pz[i];
  }
  float s = 0.0f;
  for (int base = 0; base < n; base += TILE) {
    int j = base + threadIdx.x;
    bool ok = j < n;
    sx[threadIdx.x] = ok ? px[j] : 0.0f;
    sy[threadIdx.x] = ok ? py[j] : 0.0f;
    sz[threadIdx.x] = ok ? pz[j] : 0.0f;
    sm[threadIdx.x] = ok ? mass[j] : 0.0f;
    __syncthreads();
    for (int t = 0; t < TILE; ++t) {
      float dx = sx[t] - xi;
      float dy = sy[t] - yi;
      float dz = sz[t] - zi;
      float r = sqrtf(dx * dx + dy * dy + dz * dz);
      float q = r / h;
      float w;
      if (q < 1.0f) {
        w = 1.0f - 1.5f * q * q + 0.75f * q * q * q;
      } else if (q < 2.0f) {
        float tt = 2.0f - q;
        w = 0.25f * tt * tt * tt;
      } else {
        w = 0.0f;
      }
      s += sm[t] * w;
    }
    __syncthreads();
  }
  if (i < n) rho[i] = sigma * s;
}

void sph_density_cubic(int n, const float* px, const float* py, const float* pz, const float* mass, float h,
                       float* rho) {
  if (n <= 0) return;
  const float pi = 3.14159265358979f;
  float sigma = 1.0f / (pi * h * h * h);
  size_t bytes = (size_t)n * sizeof(float);
  float *d_x = nullptr, *d_y = nullptr, *d_z = nullptr, *d_m = nullptr, *d_rho = nullptr;
  cudaMalloc(&d_x, bytes);
  cudaMalloc(&d_y, bytes);
  cudaMalloc(&d_z, bytes);
  cudaMalloc(&d_m, bytes);
  cudaMalloc(&d_rho, bytes);
  cudaMemcpy(d_x, px, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_y, py, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_z, pz, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_m, mass, bytes, cudaMemcpyHostToDevice);
  sph_density_tiled<<<(n + TILE - 1) / TILE, TILE>>>(n, d_x, d_y, d_z, d_m, h, sigma, d_rho);
  cudaMemcpy(rho, d_rho, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_x);
  cudaFree(d_y);
  cudaFree(d_z);
  cudaFree(d_m);
  cudaFree(d_rho);
}
