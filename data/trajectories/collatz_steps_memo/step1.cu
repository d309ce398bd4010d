#include <cuda_runtime.h>
#include <cstdint>

// Steps from v until it drops below tsize, and the value reached.
__device__ __forceinline__ int walk(uint64_t& v, uint64_t tsize) {
  int count = 0;
  while (v >= tsize) {
    v = (v & 1) ? 3 * v + 1 : v >> 1;
    ++count;
  }
  return count;
}

// One thread per start value.
__global__ void collatz_thread(int n, const uint32_t* start, int tsize, const int* table, int* steps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint64_t v = start[i];
  int count = walk(v, (uint64_t)tsize);
  steps[i] = count + table[v];
}

void collatz_steps(int n, const uint32_t* start, int tsize, const int* table, int* steps) {
  if (n <= 0) return;
  uint32_t* d_start = nullptr;
  int *d_table = nullptr, *d_steps = nullptr;
  cudaMalloc(&d_start, (size_t)n * sizeof(uint32_t));
  cudaMalloc(&d_table, (size_t)tsize * sizeof(int));
  cudaMalloc(&d_steps, (size_t)n * sizeof(int));
  cudaMemcpy(d_start, start, (size_t)n * sizeof(uint32_t), cudaMemcpyHostToDevice);
  cudaMemcpy(d_table, table, (size_t)tsize * sizeof(int), cudaMemcpyHostToDevice);
  collatz_thread<<<(n + 255) / 256, 256>>>(n, d_start, tsize, d_table, d_steps);
  cudaMemcpy(steps, d_steps, (size_t)n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d_start);
  cudaFree(d_table);
  cudaFree(d_steps);
}
