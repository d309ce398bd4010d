#include <cuda_runtime.h>

constexpr int kRowsPerBlock = 128;
constexpr int kPitch = 32;  // floats per shared row

// A block stages 128 rows in shared memory with coalesced loads, each thread
// insertion-sorts one row there, and the block writes the rows back coalesced.
__global__ void sort_rows_shared(int rows, const float* __restrict__ in, float* __restrict__ out) {
  __shared__ float tile[kRowsPerBlock * kPitch];
  int row0 = blockIdx.x * kRowsPerBlock;
  int nrows = rows - row0 < kRowsPerBlock ? rows - row0 : kRowsPerBlock;
  const float* src = in + static_cast<size_t>(row0) * 32;
  float* dst = out + static_cast<size_t>(row0) * 32;
  // Coalesced load: consecutive threads read consecutive floats of the block's rows.
  for (int e = threadIdx.x; e < nrows * 32; e += kRowsPerBlock) tile[(e >> 5) * kPitch + (e & 31)] = src[e];
  __syncthreads();
  if (threadIdx.x < nrows) {
    float* v = tile + threadIdx.x * kPitch;
    for (int a = 1; a < 32; ++a) {
      float key = v[a];
      int b = a - 1;
      while (b >= 0 && v[b] > key) {
        v[b + 1] = v[b];
        --b;
      }
      v[b + 1] = key;
    }
  }
  __syncthreads();
  // Coalesced store of the sorted rows.
  for (int e = threadIdx.x; e < nrows * 32; e += kRowsPerBlock) dst[e] = tile[(e >> 5) * kPitch + (e & 31)];
}

void sortEachRow32(int rows, const float* in, float* out) {
  if (rows <= 0) return;
  size_t bytes = static_cast<size_t>(rows) * 32 * sizeof(float);
  float *din = nullptr, *dout = nullptr;
  cudaMalloc(&din, bytes);
  cudaMalloc(&dout, bytes);
  cudaMemcpy(din, in, bytes, cudaMemcpyHostToDevice);
  int grid = (rows + kRowsPerBlock - 1) / kRowsPerBlock;
  sort_rows_shared<<<grid, kRowsPerBlock>>>(rows, din, dout);
  cudaMemcpy(out, dout, bytes, cudaMemcpyDeviceToHost);
  cudaFree(din);
  cudaFree(dout);
}
