#include <cuda_runtime.h>
#include <cstdint>

// Step 1 (thread_mapping): points are independent; threads take points.
// Step 2 (shared_memory_tiling): every point walks the same edge list, so a
// block loads the vertices in chunks of kPipChunk into shared memory
// (with the chunk's previous vertex, which closes its first edge) and all
// its threads read them from there.
// Step 3 (register_tiling): each thread owns two points (p and p + blockDim)
// held in registers, so every edge read from shared memory is tested twice.
// Step 4 (warp_divergence_elimination): the crossing toggles a parity bit by
// XOR with the predicate instead of a branch. The abscissa uses explicit
// round-to-nearest intrinsics (__fsub_rn, __fmul_rn, __fdiv_rn, __fadd_rn)
// in the reference's order, so no fused multiply-add moves it and each edge
// is decided exactly as on the host.
constexpr int kPipBlock = 128;
constexpr int kPipChunk = 512;

__device__ __forceinline__ unsigned int pip_cross(float px, float py, float xi, float yi, float xj, float yj) {
  bool straddle = (yi > py) != (yj > py);
  // Only evaluated when straddling (yj != yi there), as in the reference.
  bool left = straddle && px < __fadd_rn(__fdiv_rn(__fmul_rn(__fsub_rn(xj, xi), __fsub_rn(py, yi)),
                                                   __fsub_rn(yj, yi)), xi);
  return left ? 1u : 0u;
}

__global__ void pip_kernel(const float* __restrict__ px, const float* __restrict__ py, int np,
                           const float* __restrict__ vx, const float* __restrict__ vy, int nv,
                           uint8_t* __restrict__ inside) {
  __shared__ float sx[kPipChunk + 1], sy[kPipChunk + 1];
  const int p0 = blockIdx.x * (2 * kPipBlock) + threadIdx.x;
  const int p1 = p0 + kPipBlock;
  const float ax = p0 < np ? px[p0] : 0.0f, ay = p0 < np ? py[p0] : 0.0f;
  const float bx = p1 < np ? px[p1] : 0.0f, by = p1 < np ? py[p1] : 0.0f;
  unsigned int in0 = 0, in1 = 0;
  for (int base = 0; base < nv; base += kPipChunk) {
    const int count = min(kPipChunk, nv - base);
    __syncthreads();  // the previous chunk is no longer read
    // Slot 0 holds the vertex before the chunk (vertex nv-1 for the first).
    for (int t = threadIdx.x; t <= count; t += kPipBlock) {
      int v = (t == 0) ? (base == 0 ? nv - 1 : base - 1) : base + t - 1;
      sx[t] = vx[v];
      sy[t] = vy[v];
    }
    __syncthreads();
    for (int t = 1; t <= count; ++t) {
      float xi = sx[t], yi = sy[t], xj = sx[t - 1], yj = sy[t - 1];  // edge (j = previous, i = current)
      in0 ^= pip_cross(ax, ay, xi, yi, xj, yj);
      in1 ^= pip_cross(bx, by, xi, yi, xj, yj);
    }
  }
  if (p0 < np) inside[p0] = (uint8_t)in0;
  if (p1 < np) inside[p1] = (uint8_t)in1;
}

void pointsInPolygon(const float* px, const float* py, int np, const float* vx, const float* vy, int nv,
                     uint8_t* inside) {
  if (np <= 0) return;
  float *dpx = nullptr, *dpy = nullptr, *dvx = nullptr, *dvy = nullptr;
  uint8_t* din = nullptr;
  cudaMalloc(&dpx, (size_t)np * sizeof(float));
  cudaMalloc(&dpy, (size_t)np * sizeof(float));
  cudaMalloc(&dvx, (size_t)(nv > 0 ? nv : 1) * sizeof(float));
  cudaMalloc(&dvy, (size_t)(nv > 0 ? nv : 1) * sizeof(float));
  cudaMalloc(&din, (size_t)np);
  cudaMemcpy(dpx, px, (size_t)np * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dpy, py, (size_t)np * sizeof(float), cudaMemcpyHostToDevice);
  if (nv > 0) {
    cudaMemcpy(dvx, vx, (size_t)nv * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dvy, vy, (size_t)nv * sizeof(float), cudaMemcpyHostToDevice);
  }
  int grid = (np + 2 * kPipBlock - 1) / (2 * kPipBlock);
  pip_kernel<<<grid, kPipBlock>>>(dpx, dpy, np, dvx, dvy, nv, din);
  cudaMemcpy(inside, din, (size_t)np, cudaMemcpyDeviceToHost);
  cudaFree(dpx);
  cudaFree(dpy);
  cudaFree(dvx);
  cudaFree(dvy);
  cudaFree(din);
}
