#include <cuda_runtime.h>
#include <math.h>

// Step 1 (thread_mapping): one thread per query point.
// Step 2 (shared_memory_tiling): every query walks the same segments, so a
// block stages them chunk by chunk in shared memory as (ax, ay, dx, dy,
// inv_len2) records.
// Step 3 (strength_reduction): the reciprocal of each segment's squared
// length is computed once per chunk (0 for a zero-length segment, giving
// t = 0 as in the reference), turning the per-pair division into a
// multiply; distances are compared squared and one square root per query is
// taken at the end (sqrt is monotonic, so the minimum is the same).
// Step 4 (loop_unrolling): the loop over a chunk's segments is unrolled by 4.
constexpr int kPplBlock = 256;
constexpr int kPplChunk = 256;

struct PplSeg {
  float ax, ay, dx, dy, inv_len2;
};

__global__ void polyline_dist_kernel(const float* __restrict__ qx, const float* __restrict__ qy, int nq,
                                     const float* __restrict__ vx, const float* __restrict__ vy, int nv,
                                     float* __restrict__ dist) {
  __shared__ PplSeg seg[kPplChunk];
  const int q = blockIdx.x * kPplBlock + threadIdx.x;
  const float x = q < nq ? qx[q] : 0.0f;
  const float y = q < nq ? qy[q] : 0.0f;
  const int segments = nv > 1 ? nv - 1 : 1;
  float best = INFINITY;
  for (int base = 0; base < segments; base += kPplChunk) {
    const int count = min(kPplChunk, segments - base);
    __syncthreads();
    for (int t = threadIdx.x; t < count; t += kPplBlock) {
      int s = base + t;
      int e = nv > 1 ? s + 1 : s;
      float ax = vx[s], ay = vy[s];
      float dx = vx[e] - ax, dy = vy[e] - ay;
      float len2 = dx * dx + dy * dy;
      seg[t].ax = ax;
      seg[t].ay = ay;
      seg[t].dx = dx;
      seg[t].dy = dy;
      seg[t].inv_len2 = len2 > 0.0f ? 1.0f / len2 : 0.0f;
    }
    __syncthreads();
#pragma unroll 4
    for (int t = 0; t < count; ++t) {
      const PplSeg s = seg[t];
      float px = x - s.ax, py = y - s.ay;
      float u = fminf(fmaxf((px * s.dx + py * s.dy) * s.inv_len2, 0.0f), 1.0f);
      float cx = s.ax + u * s.dx - x;
      float cy = s.ay + u * s.dy - y;
      best = fminf(best, cx * cx + cy * cy);
    }
  }
  if (q < nq) dist[q] = sqrtf(best);
}

void pointPolylineDistance(const float* qx, const float* qy, int nq, const float* vx, const float* vy, int nv,
                           float* dist) {
  if (nq <= 0 || nv <= 0) return;
  float *dqx = nullptr, *dqy = nullptr, *dvx = nullptr, *dvy = nullptr, *dd = nullptr;
  cudaMalloc(&dqx, (size_t)nq * sizeof(float));
  cudaMalloc(&dqy, (size_t)nq * sizeof(float));
  cudaMalloc(&dvx, (size_t)nv * sizeof(float));
  cudaMalloc(&dvy, (size_t)nv * sizeof(float));
  cudaMalloc(&dd, (size_t)nq * sizeof(float));
  cudaMemcpy(dqx, qx, (size_t)nq * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dqy, qy, (size_t)nq * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dvx, vx, (size_t)nv * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dvy, vy, (size_t)nv * sizeof(float), cudaMemcpyHostToDevice);
  polyline_dist_kernel<<<(nq + kPplBlock - 1) / kPplBlock, kPplBlock>>>(dqx, dqy, nq, dvx, dvy, nv, dd);
  cudaMemcpy(dist, dd, (size_t)nq * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(dqx);
  cudaFree(dqy);
  cudaFree(dvx);
  cudaFree(dvy);
  cudaFree(dd);
}
