#include <cuda_runtime.h>
#include <cstdint>

#define THREADS 256
#define BLOCKS 512

// Each thread advances two walks in the same loop: their steps are independent,
// so the two dependent chains of multiply, shift and compare interleave. A walk
// that ends stores its result and takes the next value from the counter while
// the other keeps going.
__global__ void collatz_queue_pair(int n, const uint32_t* __restrict__ start, int tsize,
                                   const int* __restrict__ table, int* __restrict__ steps,
                                   int* __restrict__ next) {
  const uint64_t limit = (uint64_t)tsize;
  int ia = atomicAdd(next, 1), ib = atomicAdd(next, 1);
  uint64_t va = ia < n ? __ldg(&start[ia]) : 0, vb = ib < n ? __ldg(&start[ib]) : 0;
  int ca = 0, cb = 0;
  while (ia < n || ib < n) {
    bool a_live = ia < n && va >= limit, b_live = ib < n && vb >= limit;
    if (a_live) {
      va = (va & 1) ? 3 * va + 1 : va >> 1;
      ++ca;
    }
    if (b_live) {
      vb = (vb & 1) ? 3 * vb + 1 : vb >> 1;
      ++cb;
    }
    if (ia < n && va < limit) {
      steps[ia] = ca + __ldg(&table[va]);
      ia = atomicAdd(next, 1);
      va = ia < n ? __ldg(&start[ia]) : 0;
      ca = 0;
    }
    if (ib < n && vb < limit) {
      steps[ib] = cb + __ldg(&table[vb]);
      ib = atomicAdd(next, 1);
      vb = ib < n ? __ldg(&start[ib]) : 0;
      cb = 0;
    }
  }
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
  int* d_next = nullptr;  // the work counter
  cudaMalloc(&d_next, sizeof(int));
  cudaMemset(d_next, 0, sizeof(int));
  collatz_queue_pair<<<BLOCKS, THREADS>>>(n, d_start, tsize, d_table, d_steps, d_next);
  cudaFree(d_next);
  cudaMemcpy(steps, d_steps, (size_t)n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d_start);
  cudaFree(d_table);
  cudaFree(d_steps);
}
