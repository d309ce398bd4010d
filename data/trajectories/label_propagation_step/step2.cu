#include <cuda_runtime.h>

// Thread per vertex; the old labels are never written during the sweep (the
// result goes to a separate array), so the random label gathers and the CSR
// arrays are loaded through the read-only cache.
__global__ void min_label_thread(int n, const int* __restrict__ row_ptr, const int* __restrict__ col_idx,
                                 const int* __restrict__ labels, int* __restrict__ new_labels, int* changed) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  int own = __ldg(&labels[v]);
  int m = own;
  int end = __ldg(&row_ptr[v + 1]);
  for (int k = __ldg(&row_ptr[v]); k < end; ++k) m = min(m, __ldg(&labels[__ldg(&col_idx[k])]));
  new_labels[v] = m;
  if (m != own) atomicAdd(changed, 1);
}

int min_label_sweep(int n, const int* row_ptr, const int* col_idx, const int* labels, int* new_labels) {
  if (n <= 0) return 0;
  int nnz = row_ptr[n];
  int *d_ptr = nullptr, *d_col = nullptr, *d_lab = nullptr, *d_new = nullptr, *d_changed = nullptr;
  cudaMalloc(&d_ptr, (size_t)(n + 1) * sizeof(int));
  cudaMalloc(&d_col, (size_t)(nnz > 0 ? nnz : 1) * sizeof(int));
  cudaMalloc(&d_lab, (size_t)n * sizeof(int));
  cudaMalloc(&d_new, (size_t)n * sizeof(int));
  cudaMalloc(&d_changed, sizeof(int));
  cudaMemcpy(d_ptr, row_ptr, (size_t)(n + 1) * sizeof(int), cudaMemcpyHostToDevice);
  if (nnz > 0) cudaMemcpy(d_col, col_idx, (size_t)nnz * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_lab, labels, (size_t)n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(d_changed, 0, sizeof(int));
  int block = 256;
  min_label_thread<<<(n + block - 1) / block, block>>>(n, d_ptr, d_col, d_lab, d_new, d_changed);
  int changed = 0;
  cudaMemcpy(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(new_labels, d_new, (size_t)n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d_ptr);
  cudaFree(d_col);
  cudaFree(d_lab);
  cudaFree(d_new);
  cudaFree(d_changed);
  return changed;
}
