#include <cuda_runtime.h>

constexpr int kBlock = 256;
constexpr int kWarps = kBlock / 32;
constexpr int kMaxBlocks = 1024;

// 1 when exactly one of the two samples is negative.
__device__ __forceinline__ int crosses(float a, float b) { return (a < 0.0f) != (b < 0.0f); }

__device__ __forceinline__ int warp_sum(int v) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  return v;
}

// Group g = samples 4g .. 4g+3 as one aligned float4 (cudaMalloc alignment);
// it owns the pairs starting at 4g .. 4g+3, whose last one needs sample 4g+4
// (a scalar load, present unless the group ends the array). Pairs starting at
// 4*(n/4) or later (at most two) go to the threads with global index 0 and 1.
__global__ void crossing_kernel(int n, const float* x, int* count) {
  __shared__ int warp_tot[kWarps];
  int n4 = n >> 2;
  const float4* x4 = reinterpret_cast<const float4*>(x);
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = gridDim.x * blockDim.x;
  int c = 0;
  for (int g = gid; g < n4; g += stride) {
    float4 q = x4[g];
    c += crosses(q.x, q.y) + crosses(q.y, q.z) + crosses(q.z, q.w);
    int next = 4 * g + 4;
    if (next < n) c += crosses(q.w, x[next]);
  }
  int i = 4 * n4 + gid;
  if (i + 1 < n) c += crosses(x[i], x[i + 1]);
  c = warp_sum(c);
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) warp_tot[warp] = c;
  __syncthreads();
  if (warp == 0) {
    int w = lane < kWarps ? warp_tot[lane] : 0;
    w = warp_sum(w);
    if (lane == 0 && w != 0) atomicAdd(count, w);
  }
}

int countSignChanges(int n, const float* x) {
  if (n < 2) return 0;
  float* dx = nullptr;
  int* dcount = nullptr;
  cudaMalloc(&dx, static_cast<size_t>(n) * sizeof(float));
  cudaMalloc(&dcount, sizeof(int));
  cudaMemcpy(dx, x, static_cast<size_t>(n) * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(dcount, 0, sizeof(int));
  int groups = n / 4 + 1;  // float4 groups plus room for the scalar tail pairs
  int blocks = (groups + kBlock - 1) / kBlock;
  if (blocks > kMaxBlocks) blocks = kMaxBlocks;
  crossing_kernel<<<blocks, kBlock>>>(n, dx, dcount);
  int count = 0;
  cudaMemcpy(&count, dcount, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dcount);
  return count;
}
