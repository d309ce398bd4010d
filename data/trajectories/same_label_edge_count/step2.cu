#include <cuda_runtime.h>

constexpr int kBlock = 128;

// All graph arrays are read-only during the kernel: const __restrict__ and
// __ldg route the random label gathers and the CSR streams through the
// read-only data cache.
__global__ void same_label_kernel(int n, const int* __restrict__ row_ptr, const int* __restrict__ col_idx,
                                  const int* __restrict__ labels, int* __restrict__ count) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  int lv = __ldg(labels + v);
  int begin = __ldg(row_ptr + v), end = __ldg(row_ptr + v + 1);
  int c = 0;
  for (int e = begin; e < end; ++e) c += __ldg(labels + __ldg(col_idx + e)) == lv;
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
