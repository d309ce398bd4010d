#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

// One thread per node: serial total, then serial running sum.
__global__ void cdf_node_thread(int n, const int* row_ptr, const float* w, float* cdf) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int b = row_ptr[i], e = row_ptr[i + 1];
  float total = 0.0f;
  for (int k = b; k < e; ++k) total += w[k];
  float run = 0.0f;
  for (int k = b; k < e; ++k) {
    run += w[k];
    cdf[k] = run / total;
  }
}

void random_walk_cdf_csr(int n, const int* row_ptr, const float* weight, std::vector<float>& cdf) {
  int nnz = n > 0 ? row_ptr[n] : 0;
  cdf.assign((size_t)nnz, 0.0f);
  if (n <= 0 || nnz <= 0) return;
  int* d_ptr = nullptr;
  float *d_w = nullptr, *d_cdf = nullptr;
  cudaMalloc(&d_ptr, (size_t)(n + 1) * sizeof(int));
  cudaMalloc(&d_w, (size_t)nnz * sizeof(float));
  cudaMalloc(&d_cdf, (size_t)nnz * sizeof(float));
  cudaMemcpy(d_ptr, row_ptr, (size_t)(n + 1) * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_w, weight, (size_t)nnz * sizeof(float), cudaMemcpyHostToDevice);
  int block = 128;
  cdf_node_thread<<<(n + block - 1) / block, block>>>(n, d_ptr, d_w, d_cdf);
  cudaMemcpy(cdf.data(), d_cdf, (size_t)nnz * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_ptr);
  cudaFree(d_w);
  cudaFree(d_cdf);
}
