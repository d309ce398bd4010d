#include <cuda_runtime.h>

// One thread per query pair, running the same two-pointer merge as the
// serial code over the two sorted neighbour lists.
__global__ void jaccard_thread(int q, const int* row_ptr, const int* col_idx, const int* pu, const int* pv,
                               float* sim) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= q) return;
  int u = pu[p], v = pv[p];
  int a = row_ptr[u], a_end = row_ptr[u + 1];
  int b = row_ptr[v], b_end = row_ptr[v + 1];
  int du = a_end - a, dv = b_end - b;
  int inter = 0;
  while (a < a_end && b < b_end) {
    int x = col_idx[a], y = col_idx[b];
    if (x < y) {
      ++a;
    } else if (x > y) {
      ++b;
    } else {
      ++inter;
      ++a;
      ++b;
    }
  }
  int uni = du + dv - inter;
  sim[p] = uni > 0 ? (float)inter / (float)uni : 0.0f;
}

void jaccard_pairs(int n, const int* row_ptr, const int* col_idx, int q, const int* pu, const int* pv,
                   float* sim) {
  if (n <= 0 || q <= 0) return;
  int nnz = row_ptr[n];
  int *d_ptr = nullptr, *d_col = nullptr, *d_pu = nullptr, *d_pv = nullptr;
  float* d_sim = nullptr;
  cudaMalloc(&d_ptr, (size_t)(n + 1) * sizeof(int));
  cudaMalloc(&d_col, (size_t)(nnz > 0 ? nnz : 1) * sizeof(int));
  cudaMalloc(&d_pu, (size_t)q * sizeof(int));
  cudaMalloc(&d_pv, (size_t)q * sizeof(int));
  cudaMalloc(&d_sim, (size_t)q * sizeof(float));
  cudaMemcpy(d_ptr, row_ptr, (size_t)(n + 1) * sizeof(int), cudaMemcpyHostToDevice);
  if (nnz > 0) cudaMemcpy(d_col, col_idx, (size_t)nnz * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_pu, pu, (size_t)q * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_pv, pv, (size_t)q * sizeof(int), cudaMemcpyHostToDevice);
  int block = 256;
  jaccard_thread<<<(q + block - 1) / block, block>>>(q, d_ptr, d_col, d_pu, d_pv, d_sim);
  cudaMemcpy(sim, d_sim, (size_t)q * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_ptr);
  cudaFree(d_col);
  cudaFree(d_pu);
  cudaFree(d_pv);
  cudaFree(d_sim);
}
