#include <cuda_runtime.h>

__global__ void vec_add_kernel(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

void vec_add(const float* a, const float* b, float* c, int n) {
  float *da, *db, *dc;
  size_t bytes = n * sizeof(float);
  cudaMalloc(&da, bytes);
  cudaMalloc(&db, bytes);
  cudaMalloc(&dc, bytes);
  cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice);
  vec_add_kernel<<<(n + 255) / 256, 256>>>(da, db, dc, n);
  cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
}
