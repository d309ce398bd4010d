#include <cuda_runtime.h>

// One thread per edge, incrementing both endpoint degrees with atomicAdd
// (many edges share endpoints).
__global__ void degree_atomic(int m, const int* src, const int* dst, int* degree) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= m) return;
  atomicAdd(&degree[src[e]], 1);
  atomicAdd(&degree[dst[e]], 1);
}

void degrees_from_edges(int n, int m, const int* src, const int* dst, int* degree) {
  if (n <= 0) return;
  size_t me = (size_t)(m > 0 ? m : 1);
  int *d_src = nullptr, *d_dst = nullptr, *d_deg = nullptr;
  cudaMalloc(&d_src, me * sizeof(int));
  cudaMalloc(&d_dst, me * sizeof(int));
  cudaMalloc(&d_deg, (size_t)n * sizeof(int));
  if (m > 0) {
    cudaMemcpy(d_src, src, (size_t)m * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_dst, dst, (size_t)m * sizeof(int), cudaMemcpyHostToDevice);
  }
  cudaMemset(d_deg, 0, (size_t)n * sizeof(int));
  if (m > 0) {
    int block = 256;
    degree_atomic<<<(m + block - 1) / block, block>>>(m, d_src, d_dst, d_deg);
  }
  cudaMemcpy(degree, d_deg, (size_t)n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d_src);
  cudaFree(d_dst);
  cudaFree(d_deg);
}
