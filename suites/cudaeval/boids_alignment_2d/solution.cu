#include <cuda_runtime.h>
#include <cstddef>

constexpr int kTile = 256;

// Step 1 (thread_mapping): one thread per boid computes its neighbour sums.
// Step 2 (shared_memory_tiling): the block loads the flock 256 boids at a
// time into shared memory (x, y, vx, vy packed in one float4), and every
// thread of the block tests its boid against the whole tile.
// Step 3 (register_caching): the boid's own position and velocity and its
// running sums and count live in registers for the whole pass.
// Step 4 (loop_unrolling): the inner loop over a full tile is unrolled by 8.
// Neighbours are visited in increasing index order, as in the serial loop, so
// the sums are added in the same order; the squared distance is rounded like
// the serial code (no contraction) so the neighbour sets agree exactly.
__device__ __forceinline__ void boid_visit(float4 b, float xi, float yi, float r2, float& sx, float& sy, int& c) {
  float dx = b.x - xi;
  float dy = b.y - yi;
  if (__fadd_rn(__fmul_rn(dx, dx), __fmul_rn(dy, dy)) < r2) {
    sx += b.z;
    sy += b.w;
    ++c;
  }
}

__global__ void boids_kernel(int n, const float* __restrict__ px, const float* __restrict__ py,
                             const float* __restrict__ vx, const float* __restrict__ vy, float r2, float weight,
                             float vmax, float* __restrict__ nvx, float* __restrict__ nvy) {
  __shared__ float4 tile[kTile];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool active = i < n;
  float xi = active ? px[i] : 0.0f, yi = active ? py[i] : 0.0f;
  float ux = active ? vx[i] : 0.0f, uy = active ? vy[i] : 0.0f;
  float sx = 0.0f, sy = 0.0f;
  int count = 0;
  for (int base = 0; base < n; base += kTile) {
    int j = base + threadIdx.x;
    if (j < n) tile[threadIdx.x] = make_float4(px[j], py[j], vx[j], vy[j]);
    __syncthreads();
    int len = n - base < kTile ? n - base : kTile;
    if (active) {
      // The tile holding boid i itself is walked element by element so it can
      // be skipped; the others take the unrolled path.
      if (i >= base && i < base + len) {
        for (int t = 0; t < len; ++t) {
          if (base + t != i) boid_visit(tile[t], xi, yi, r2, sx, sy, count);
        }
      } else if (len == kTile) {
#pragma unroll 8
        for (int t = 0; t < kTile; ++t) boid_visit(tile[t], xi, yi, r2, sx, sy, count);
      } else {
        for (int t = 0; t < len; ++t) boid_visit(tile[t], xi, yi, r2, sx, sy, count);
      }
    }
    __syncthreads();
  }
  if (!active) return;
  float ox = ux, oy = uy;
  if (count > 0) {
    ux += weight * (sx / count - ox);
    uy += weight * (sy / count - oy);
  }
  float speed = sqrtf(ux * ux + uy * uy);
  if (speed > vmax) {
    ux *= vmax / speed;
    uy *= vmax / speed;
  }
  nvx[i] = ux;
  nvy[i] = uy;
}

void boidsAlignment(int n, const float* px, const float* py, const float* vx, const float* vy, float radius,
                    float weight, float vmax, float* nvx, float* nvy) {
  if (n <= 0) return;
  size_t b = (size_t)n * sizeof(float);
  float *d[6];
  for (int k = 0; k < 6; ++k) cudaMalloc(&d[k], b);
  cudaMemcpy(d[0], px, b, cudaMemcpyHostToDevice);
  cudaMemcpy(d[1], py, b, cudaMemcpyHostToDevice);
  cudaMemcpy(d[2], vx, b, cudaMemcpyHostToDevice);
  cudaMemcpy(d[3], vy, b, cudaMemcpyHostToDevice);
  float r2 = radius * radius;
  boids_kernel<<<(n + kTile - 1) / kTile, kTile>>>(n, d[0], d[1], d[2], d[3], r2, weight, vmax, d[4], d[5]);
  cudaMemcpy(nvx, d[4], b, cudaMemcpyDeviceToHost);
  cudaMemcpy(nvy, d[5], b, cudaMemcpyDeviceToHost);
  for (int k = 0; k < 6; ++k) cudaFree(d[k]);
}
