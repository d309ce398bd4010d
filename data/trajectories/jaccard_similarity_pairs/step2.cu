#include <cuda_runtime.h>

// One warp per query pair. The lanes take the elements of the shorter list
// (lane l: elements l, l+32, ...) and binary-search each one in the longer
// list; matches are counted per lane and summed with __reduce_add_sync. Every
// lane does the same short, branch-light work instead of one thread running a
// data-dependent merge.
__global__ void jaccard_warp(int q, const int* row_ptr, const int* col_idx, const int* pu, const int* pv,
                             float* sim) {
  long long p = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  int lane = threadIdx.x & 31;
  if (p >= q) return;  // warp-uniform
  int u = pu[p], v = pv[p];
  int a = row_ptr[u], a_end = row_ptr[u + 1];
  int b = row_ptr[v], b_end = row_ptr[v + 1];
  int du = a_end - a, dv = b_end - b;
  // make [a, a_end) the shorter list
  if (du > dv) {
    int t = a; a = b; b = t;
    t = a_end; a_end = b_end; b_end = t;
  }
  int hits = 0;
  for (int i = a + lane; i < a_end; i += 32) {
    int key = col_idx[i];
    int lo = b, hi = b_end;
    while (lo < hi) {
      int mid = (lo + hi) >> 1;
      if (col_idx[mid] < key) lo = mid + 1;
      else hi = mid;
    }
    if (lo < b_end && col_idx[lo] == key) ++hits;
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
