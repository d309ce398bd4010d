#include <cuda_runtime.h>

// Branchless sign: two comparisons and a subtraction, the same instruction
// stream for every lane whatever the sign of its element.
__global__ void sign_kernel(int n, const int* __restrict__ x, int* __restrict__ s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int v = x[i];
    s[i] = (v > 0) - (v < 0);
  }
}

void signOfEach(int n, const int* x, int* s) {
  if (n <= 0) return;
  size_t bytes = static_cast<size_t>(n) * sizeof(int);
  int *dx = nullptr, *ds = nullptr;
  cudaMalloc(&dx, bytes);
  cudaMalloc(&ds, bytes);
  cudaMemcpy(dx, x, bytes, cudaMemcpyHostToDevice);
  int block = 256;
  int grid = (n + block - 1) / block;
  sign_kernel<<<grid, block>>>(n, dx, ds);
  cudaMemcpy(s, ds, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(ds);
}
