#include <cuda_runtime.h>

constexpr int kBlock = 256;  // 8 warps = 8 rows per block

// One warp per row, one element per lane: a bitonic sorting network of
// compare-exchange stages, partners exchanged with __shfl_xor_sync. Loads and
// stores are perfectly coalesced and nothing touches shared memory.
__global__ void sort_rows_bitonic(int rows, const float* __restrict__ in, float* __restrict__ out) {
  int row = (blockIdx.x * kBlock + threadIdx.x) >> 5;
  int lane = threadIdx.x & 31;
  if (row >= rows) return;  // uniform across the warp
  size_t idx = static_cast<size_t>(row) * 32 + lane;
  float v = in[idx];
  for (int k = 2; k <= 32; k <<= 1) {
    for (int j = k >> 1; j > 0; j >>= 1) {
      float o = __shfl_xor_sync(0xffffffffu, v, j);
      bool ascending = (lane & k) == 0;
      bool lower = (lane & j) == 0;
      float mn = (o < v) ? o : v;
      float mx = (o < v) ? v : o;
      v = (lower == ascending) ? mn : mx;
    }
  }
  out[idx] = v;
}

void sortEachRow32(int rows, const float* in, float* out) {
  if (rows <= 0) return;
  size_t bytes = static_cast<size_t>(rows) * 32 * sizeof(float);
  float *din = nullptr, *dout = nullptr;
  cudaMalloc(&din, bytes);
  cudaMalloc(&dout, bytes);
  cudaMemcpy(din, in, bytes, cudaMemcpyHostToDevice);
  int grid = (rows + (kBlock / 32) - 1) / (kBlock / 32);
  sort_rows_bitonic<<<grid, kBlock>>>(rows, din, dout);
  cudaMemcpy(out, dout, bytes, cudaMemcpyDeviceToHost);
  cudaFree(din);
  cudaFree(dout);
}
