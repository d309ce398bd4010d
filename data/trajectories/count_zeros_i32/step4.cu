#include <cuda_runtime.h>

// int4 loads in the grid-stride loop (four comparisons per load); the first
// n % 4 threads of the grid check the leftover elements.
__global__ void count_zeros_kernel(int n, const int* __restrict__ x, int* count) {
  unsigned int c = 0;
  int gtid = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = gridDim.x * blockDim.x;
  int n4 = n >> 2;
  const int4* x4 = reinterpret_cast<const int4*>(x);
  for (int i = gtid; i < n4; i += stride) {
    int4 v = x4[i];
    c += (v.x == 0) + (v.y == 0) + (v.z == 0) + (v.w == 0);
  }
  if (gtid < (n & 3)) c += (x[(n4 << 2) + gtid] == 0);
  c = __reduce_add_sync(0xffffffffu, c);
  if ((threadIdx.x & 31) == 0 && c != 0u) atomicAdd(count, static_cast<int>(c));
}

int countZeroEntries(int n, const int* x) {
  if (n <= 0) return 0;
  size_t bytes = static_cast<size_t>(n) * sizeof(int);
  int *dx = nullptr, *dcount = nullptr;
  cudaMalloc(&dx, bytes);
  cudaMalloc(&dcount, sizeof(int));
  cudaMemcpy(dx, x, bytes, cudaMemcpyHostToDevice);
  cudaMemset(dcount, 0, sizeof(int));
  int block = 256;
  int work = (n >> 2) > 3 ? (n >> 2) : 3;
  int grid = (work + block - 1) / block;
  if (grid > 1024) grid = 1024;
  count_zeros_kernel<<<grid, block>>>(n, dx, dcount);
  int count = 0;
  cudaMemcpy(&count, dcount, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dcount);
  return count;
}
