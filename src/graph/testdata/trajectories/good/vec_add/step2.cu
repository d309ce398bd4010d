#include <cuda_runtime.h>

__global__ void vec_add_kernel(const float* __restrict__ a, const float* __restrict__ b,
                               float* __restrict__ c, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    c[i] = a[i] + b[i];
  }
}

void vec_add(const float* a, const float* b, float* c, int n) {
  float *da, *db, *dc;
  size_t bytes = n * sizeof(float);
  cudaMalloc(&da, bytes);
  cudaMalloc(&db, bytes);
  cudaMalloc(&dc, bytes);
  cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice);
  int blocks = 0;
  cudaDeviceGetAttribute(&blocks, cudaDevAttrMultiProcessorCount, 0);
  vec_add_kernel<<<blocks * 8, 256>>>(da, db, dc, n);
  cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
}
