#include <cuda_runtime.h>

// Warp per pair with lane-parallel binary searches. All 32 lanes probe the
// same longer list, so its first probes are shared; the graph and query arrays
// are read-only and go through the read-only cache.
__global__ void jaccard_warp(int q, const int* __restrict__ row_ptr, const int* __restrict__ col_idx,
                             const int* __restrict__ pu, const int* __restrict__ pv, float* __restrict__ sim) {
  long long p = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  int lane = threadIdx.x & 31;
  if (p >= q) return;  // warp-uniform
  int u = __ldg(&pu[p]), v = __ldg(&pv[p]);
  int a = __ldg(&row_ptr[u]), a_end = __ldg(&row_ptr[u + 1]);
  int b = __ldg(&row_ptr[v]), b_end = __ldg(&row_ptr[v + 1]);
  int du = a_end - a, dv = b_end - b;
  // make [a, a_end) the shorter list
  if (du > dv) {
    int t = a; a = b; b = t;
    t = a_end; a_end = b_end; b_end = t;
  }
  int hits = 0;
  for (int i = a + lane; i < a_end; i += 32) {
    int key = __ldg(&col_idx[i]);
    int lo = b, hi = b_end;
    while (lo < hi) {
      int mid = (lo + hi) >> 1;
      if (__ldg(&col_idx[mid]) < key) lo = mid + 1;
      else hi = mid;
    }
    if (lo < b_end && __ldg(&col_idx[lo]) == key) ++hits;
  }
  int inter = __reduce_add_sync(0xffffffffu, hits);
  if (lane == 0) {
    int uni = du + dv - inter;
    sim[p] = uni > 0 ? (float)inter / (float)uni : 0.0f;
  }
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
  int block = 256;  // 8 pairs per block
  long long threads = (long long)q * 32;
  jaccard_warp<<<(unsigned)((threads + block - 1) / block), block>>>(q, d_ptr, d_col, d_pu, d_pv, d_sim);
  cudaMemcpy(sim, d_sim, (size_t)q * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_ptr);
  cudaFree(d_col);
  cudaFree(d_pu);
  cudaFree(d_pv);
  cudaFree(d_sim);
}
