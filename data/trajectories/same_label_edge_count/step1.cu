#include <cuda_runtime.h>

constexpr int kBlock = 128;

// One thread per vertex counts its matching out-edges and adds the count to the
// global counter with one atomic.
__global__ void same_label_kernel(int n, const int* row_ptr, const int* col_idx, const int* labels, int* count) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  int lv = labels[v];
  int c = 0;
  for (int e = row_ptr[v]; e < row_ptr[v + 1]; ++e) c += labels[col_idx[e]] == lv;
  if (c != 0) atomicAdd(count, c);
}

int countSameLabelEdges(int n, const int* row_ptr, const int* col_idx, const int* labels) {
  if (n <= 0) return 0;
  int nnz = row_ptr[n];
  int *drow = nullptr, *dcol = nullptr, *dlab = nullptr, *dcount = nullptr;
  cudaMalloc(&drow, static_cast<size_t>(n + 1) * sizeof(int));
  cudaMalloc(&dcol, static_cast<size_t>(nnz > 0 ? nnz : 1) * sizeof(int));
  cudaMalloc(&dlab, static_cast<size_t>(n) * sizeof(int));
  cudaMalloc(&dcount, sizeof(int));
  cudaMemcpy(drow, row_ptr, static_cast<size_t>(n + 1) * sizeof(int), cudaMemcpyHostToDevice);
  if (nnz > 0) cudaMemcpy(dcol, col_idx, static_cast<size_t>(nnz) * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(dlab, labels, static_cast<size_t>(n) * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(dcount, 0, sizeof(int));
  same_label_kernel<<<(n + kBlock - 1) / kBlock, kBlock>>>(n, drow, dcol, dlab, dcount);
  int count = 0;
  cudaMemcpy(&count, dcount, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(drow);
  cudaFree(dcol);
  cudaFree(dlab);
  cudaFree(dcount);
  return count;
}
