#include <cuda_runtime.h>

constexpr int kBlock = 256;

// Index b beats index a when it is valid and a is not, when its value is
// larger, or when the values are equal and b comes first.
__device__ __forceinline__ bool better(const float* __restrict__ x, int b, int a) {
  if (b < 0) return false;
  if (a < 0) return true;
  float vb = __ldg(x + b), va = __ldg(x + a);
  return vb > va || (vb == va && b < a);
}

// One warp per segment: lane l scans elements l, l + 32, ... (coalesced), then
// five butterfly shuffles of the best index give every lane the segment's
// arg-max; the values are re-read through the read-only cache.
__global__ void argmax_kernel(int nseg, const int* __restrict__ offsets, const float* __restrict__ x,
                              int* __restrict__ out) {
  int s = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  int lane = threadIdx.x & 31;
  if (s >= nseg) return;  // uniform per warp
  int begin = __ldg(offsets + s), end = __ldg(offsets + s + 1);
  int best = -1;
  for (int j = begin + lane; j < end; j += 32)
    if (best < 0 || __ldg(x + j) > __ldg(x + best)) best = j;
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) {
    int other = __shfl_xor_sync(0xffffffffu, best, off);
    if (better(x, other, best)) best = other;
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
