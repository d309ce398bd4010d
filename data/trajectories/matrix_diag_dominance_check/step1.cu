#include <cuda_runtime.h>
#include <cstddef>

// One thread per row: sum |A[i][j]| off the diagonal and compare.
__global__ void diag_dom_thread(int n, double w, const double* A, bool* dominant) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const double* row = A + (size_t)i * n;
  double off = 0.0;
  for (int j = 0; j < n; ++j) {
    if (j != i) off += fabs(row[j]);
  }
  dominant[i] = fabs(row[i]) >= w * off;
}

void rows_diag_dominant(int n, double w, const double* A, bool* dominant) {
  if (n <= 0) return;
  size_t a_bytes = (size_t)n * (size_t)n * sizeof(double);
  double* d_A = nullptr;
  bool* d_dom = nullptr;
  cudaMalloc(&d_A, a_bytes);
  cudaMalloc(&d_dom, (size_t)n * sizeof(bool));
  cudaMemcpy(d_A, A, a_bytes, cudaMemcpyHostToDevice);
  int block = 128;
  diag_dom_thread<<<(n + block - 1) / block, block>>>(n, w, d_A, d_dom);
  cudaMemcpy(dominant, d_dom, (size_t)n * sizeof(bool), cudaMemcpyDeviceToHost);
  cudaFree(d_A);
  cudaFree(d_dom);
}
