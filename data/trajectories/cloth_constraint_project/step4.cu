#include <cuda_runtime.h>
#include <cstddef>

// Correction that constraint (p, q) applies to p, added into (ax, ay, az),
// computed with the hardware reciprocal square root.
__device__ __forceinline__ void add_correction(float px, float py, float pz, float qx, float qy, float qz,
                                               float rest, float& ax, float& ay, float& az) {
  float dx = qx - px, dy = qy - py, dz = qz - pz;
  float len2 = dx * dx + dy * dy + dz * dz;
  if (len2 <= 1e-12f) return;  // same cut as len <= 1e-6
  // 0.5 (len - rest) / len = 0.5 (1 - rest / len): one rsqrtf replaces the
  // square root and the division.
  float s = 0.5f * (1.0f - rest * rsqrtf(len2));
  ax += s * dx;
  ay += s * dy;
  az += s * dz;
}

#define TX 32
#define TY 8

// Gather form with a shared-memory tile: each block stages its 32x8 particles
// plus a one-particle halo (10 x 34 points, converted from interleaved xyz to
// three planes) with all threads cooperating, then every particle reads its
// four neighbours from shared memory instead of re-reading them from global
// memory (each position is needed by up to five threads).
__global__ void cloth_gather_tiled(int W, int H, float rest, float stiffness, const float* __restrict__ pos,
                                   float* __restrict__ new_pos) {
  __shared__ float sx[TY + 2][TX + 2];
  __shared__ float sy[TY + 2][TX + 2];
  __shared__ float sz[TY + 2][TX + 2];
  int c0 = (int)blockIdx.x * TX - 1;  // global coordinates of the halo's corner
  int r0 = (int)blockIdx.y * TY - 1;
  int tid = threadIdx.y * TX + threadIdx.x;
  for (int e = tid; e < (TY + 2) * (TX + 2); e += TX * TY) {
    int lr = e / (TX + 2), lc = e % (TX + 2);
    int gr = r0 + lr, gc = c0 + lc;
    if (gr >= 0 && gr < H && gc >= 0 && gc < W) {
      size_t g = (size_t)gr * W + gc;
      sx[lr][lc] = pos[3 * g];
      sy[lr][lc] = pos[3 * g + 1];
      sz[lr][lc] = pos[3 * g + 2];
    }
  }
  __syncthreads();
  int c = (int)blockIdx.x * TX + threadIdx.x;
  int r = (int)blockIdx.y * TY + threadIdx.y;
  if (c >= W || r >= H) return;  // after the only barrier
  int lr = threadIdx.y + 1, lc = threadIdx.x + 1;
  float px = sx[lr][lc], py = sy[lr][lc], pz = sz[lr][lc];
  float ax = 0.0f, ay = 0.0f, az = 0.0f;
  if (c > 0) add_correction(px, py, pz, sx[lr][lc - 1], sy[lr][lc - 1], sz[lr][lc - 1], rest, ax, ay, az);
  if (c + 1 < W) add_correction(px, py, pz, sx[lr][lc + 1], sy[lr][lc + 1], sz[lr][lc + 1], rest, ax, ay, az);
  if (r > 0) add_correction(px, py, pz, sx[lr - 1][lc], sy[lr - 1][lc], sz[lr - 1][lc], rest, ax, ay, az);
  if (r + 1 < H) add_correction(px, py, pz, sx[lr + 1][lc], sy[lr + 1][lc], sz[lr + 1][lc], rest, ax, ay, az);
  size_t p = (size_t)r * W + c;
  new_pos[3 * p] = px + stiffness * ax;
  new_pos[3 * p + 1] = py + stiffness * ay;
  new_pos[3 * p + 2] = pz + stiffness * az;
}

void cloth_jacobi_pass(int W, int H, float rest, float stiffness, const float* pos, float* new_pos) {
  if (W <= 0 || H <= 0) return;
  size_t count = (size_t)W * H * 3;
  float *d_pos = nullptr, *d_new = nullptr;
  cudaMalloc(&d_pos, count * sizeof(float));
  cudaMalloc(&d_new, count * sizeof(float));
  cudaMemcpy(d_pos, pos, count * sizeof(float), cudaMemcpyHostToDevice);
  dim3 block(TX, TY);
  dim3 grid((unsigned)((W + TX - 1) / TX), (unsigned)((H + TY - 1) / TY));
  cloth_gather_tiled<<<grid, block>>>(W, H, rest, stiffness, d_pos, d_new);
  cudaMemcpy(new_pos, d_new, count * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_pos);
  cudaFree(d_new);
}
