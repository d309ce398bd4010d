#include <cuda_runtime.h>
#include <cstddef>

// 1. A packing kernel turns the four input arrays into one float4 per body
//    (x, y, z, m), so a body is one 16-byte load.
// 2. The force kernel gives each thread TWO bodies (i and i + 256 of its
//    block's 512) whose positions and accumulators live in registers; every
//    body j loaded from shared memory is used twice, and the two independent
//    dependency chains overlap.
// 3. Bodies j stream through shared memory in tiles of 256; out-of-range slots
//    are filled with zero-mass bodies, whose contribution is exactly 0.
// 4. The inner loop is unrolled and uses rsqrtf and fmaf (the reference's
//    1/sqrt costs a division and a square root).
// Each body's sum still runs over j in increasing order, like the serial code.
#define BLOCK 256
#define BODIES_PER_THREAD 2

__global__ void pack_bodies_kernel(int n, const float* __restrict__ px, const float* __restrict__ py,
                                   const float* __restrict__ pz, const float* __restrict__ m,
                                   float4* __restrict__ bodies) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) bodies[i] = make_float4(px[i], py[i], pz[i], m[i]);
}

__device__ __forceinline__ void interact(float4 bj, float xi, float yi, float zi, float eps2, float& axi, float& ayi,
                                         float& azi) {
  float dx = bj.x - xi;
  float dy = bj.y - yi;
  float dz = bj.z - zi;
  float d2 = fmaf(dx, dx, fmaf(dy, dy, fmaf(dz, dz, eps2)));
  float inv = rsqrtf(d2);
  float s = bj.w * (inv * inv * inv);
  axi = fmaf(s, dx, axi);
  ayi = fmaf(s, dy, ayi);
  azi = fmaf(s, dz, azi);
}

__global__ void nbody_accel_kernel(int n, const float4* __restrict__ bodies, float eps2, float* __restrict__ ax,
                                   float* __restrict__ ay, float* __restrict__ az) {
  __shared__ float4 tile[BLOCK];
  int i0 = blockIdx.x * (BLOCK * BODIES_PER_THREAD) + threadIdx.x;
  int i1 = i0 + BLOCK;
  float4 b0 = i0 < n ? bodies[i0] : make_float4(0.f, 0.f, 0.f, 0.f);
  float4 b1 = i1 < n ? bodies[i1] : make_float4(0.f, 0.f, 0.f, 0.f);
  float ax0 = 0.f, ay0 = 0.f, az0 = 0.f;
  float ax1 = 0.f, ay1 = 0.f, az1 = 0.f;

  for (int base = 0; base < n; base += BLOCK) {
    int j = base + threadIdx.x;
    tile[threadIdx.x] = j < n ? bodies[j] : make_float4(0.f, 0.f, 0.f, 0.f);
    __syncthreads();
#pragma unroll 8
    for (int t = 0; t < BLOCK; ++t) {
      float4 bj = tile[t];
      interact(bj, b0.x, b0.y, b0.z, eps2, ax0, ay0, az0);
      interact(bj, b1.x, b1.y, b1.z, eps2, ax1, ay1, az1);
    }
    __syncthreads();
  }
  if (i0 < n) {
    ax[i0] = ax0;
    ay[i0] = ay0;
    az[i0] = az0;
  }
  if (i1 < n) {
    ax[i1] = ax1;
    ay[i1] = ay1;
    az[i1] = az1;
  }
}

void softenedGravityAccel(int n, const float* px, const float* py, const float* pz, const float* mass,
                          float softening, float* ax, float* ay, float* az) {
  if (n <= 0) return;
  size_t fb = (size_t)n * sizeof(float);
  float *dpx = nullptr, *dpy = nullptr, *dpz = nullptr, *dm = nullptr;
  float *dax = nullptr, *day = nullptr, *daz = nullptr;
  float4* dbodies = nullptr;
  cudaMalloc(&dpx, fb);
  cudaMalloc(&dpy, fb);
  cudaMalloc(&dpz, fb);
  cudaMalloc(&dm, fb);
  cudaMalloc(&dax, fb);
  cudaMalloc(&day, fb);
  cudaMalloc(&daz, fb);
  cudaMalloc(&dbodies, (size_t)n * sizeof(float4));
  cudaMemcpy(dpx, px, fb, cudaMemcpyHostToDevice);
  cudaMemcpy(dpy, py, fb, cudaMemcpyHostToDevice);
  cudaMemcpy(dpz, pz, fb, cudaMemcpyHostToDevice);
  cudaMemcpy(dm, mass, fb, cudaMemcpyHostToDevice);
  pack_bodies_kernel<<<(n + 255) / 256, 256>>>(n, dpx, dpy, dpz, dm, dbodies);
  float eps2 = softening * softening;
  int grid = (n + BLOCK * BODIES_PER_THREAD - 1) / (BLOCK * BODIES_PER_THREAD);
  nbody_accel_kernel<<<grid, BLOCK>>>(n, dbodies, eps2, dax, day, daz);
  cudaMemcpy(ax, dax, fb, cudaMemcpyDeviceToHost);
  cudaMemcpy(ay, day, fb, cudaMemcpyDeviceToHost);
  cudaMemcpy(az, daz, fb, cudaMemcpyDeviceToHost);
  cudaFree(dpx);
  cudaFree(dpy);
  cudaFree(dpz);
  cudaFree(dm);
  cudaFree(dax);
  cudaFree(day);
  cudaFree(daz);
  cudaFree(dbodies);
}
