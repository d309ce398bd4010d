#include <cuda_runtime.h>
#include <math.h>

constexpr int kBlock = 256;

// One warp per segment; each lane carries its best (value, index) pair in
// registers, so the running maximum is never re-read from memory and the
// shuffles exchange the value alongside the index.
__global__ void argmax_kernel(int nseg, const int* __restrict__ offsets, const float* __restrict__ x,
                              int* __restrict__ out) {
  int s = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  int lane = threadIdx.x & 31;
  if (s >= nseg) return;  // uniform per warp
  int begin = __ldg(offsets + s), end = __ldg(offsets + s + 1);
  int best = -1;
  float bestVal = -INFINITY;
  for (int j = begin + lane; j < end; j += 32) {
    float v = __ldg(x + j);
    if (best < 0 || v > bestVal) {
      best = j;
      bestVal = v;
    }
  }
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) {
    int oi = __shfl_xor_sync(0xffffffffu, best, off);
    float ov = __shfl_xor_sync(0xffffffffu, bestVal, off);
    bool take = oi >= 0 && (best < 0 || ov > bestVal || (ov == bestVal && oi < best));
    if (take) {
      best = oi;
      bestVal = ov;
    }
  }
  if (lane == 0) out[s] = best;
}

void segmentArgmax(int nseg, const int* offsets, const float* x, int* out) {
  if (nseg <= 0) return;
  int nnz = offsets[nseg];
  int *doff = nullptr, *dout = nullptr;
  float* dx = nullptr;
  cudaMalloc(&doff, static_cast<size_t>(nseg + 1) * sizeof(int));
  cudaMalloc(&dx, static_cast<size_t>(nnz > 0 ? nnz : 1) * sizeof(float));
  cudaMalloc(&dout, static_cast<size_t>(nseg) * sizeof(int));
  cudaMemcpy(doff, offsets, static_cast<size_t>(nseg + 1) * sizeof(int), cudaMemcpyHostToDevice);
  if (nnz > 0) cudaMemcpy(dx, x, static_cast<size_t>(nnz) * sizeof(float), cudaMemcpyHostToDevice);
  int warpsPerBlock = kBlock / 32;
  argmax_kernel<<<(nseg + warpsPerBlock - 1) / warpsPerBlock, kBlock>>>(nseg, doff, dx, dout);
  cudaMemcpy(out, dout, static_cast<size_t>(nseg) * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(doff);
  cudaFree(dx);
  cudaFree(dout);
}
