#include <cuda_runtime.h>

constexpr int kBlock = 128;

// Same thread-per-segment kernel with all inputs read-only: const __restrict__
// pointers and __ldg loads, so the repeated x[best] reads and the offsets
// shared by neighbouring threads are served by the read-only data cache.
__global__ void argmax_kernel(int nseg, const int* __restrict__ offsets, const float* __restrict__ x,
                              int* __restrict__ out) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= nseg) return;
  int begin = __ldg(offsets + s), end = __ldg(offsets + s + 1);
  int best = -1;
  for (int j = begin; j < end; ++j)
    if (best < 0 || __ldg(x + j) > __ldg(x + best)) best = j;
  out[s] = best;
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
  argmax_kernel<<<(nseg + kBlock - 1) / kBlock, kBlock>>>(nseg, doff, dx, dout);
  cudaMemcpy(out, dout, static_cast<size_t>(nseg) * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(doff);
  cudaFree(dx);
  cudaFree(dout);
}
