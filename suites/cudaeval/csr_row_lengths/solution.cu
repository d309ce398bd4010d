#include <cuda_runtime.h>
#include <vector>

// One thread per row: an adjacent difference. Neighbouring threads read
// neighbouring row_ptr entries (each loaded by two threads, served by L1).
__global__ void row_counts_kernel(int rows, const int* __restrict__ row_ptr, int* __restrict__ counts) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) counts[i] = row_ptr[i + 1] - row_ptr[i];
}

void csrRowCounts(std::vector<int> const& row_ptr, std::vector<int>& counts) {
  if (row_ptr.size() < 2) return;
  int rows = (int)row_ptr.size() - 1;
  int *dptr = nullptr, *dcnt = nullptr;
  cudaMalloc(&dptr, row_ptr.size() * sizeof(int));
  cudaMalloc(&dcnt, (size_t)rows * sizeof(int));
  cudaMemcpy(dptr, row_ptr.data(), row_ptr.size() * sizeof(int), cudaMemcpyHostToDevice);
  const int block = 256;
  int grid = (rows + block - 1) / block;
  row_counts_kernel<<<grid, block>>>(rows, dptr, dcnt);
  cudaMemcpy(counts.data(), dcnt, (size_t)rows * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dptr);
  cudaFree(dcnt);
}
