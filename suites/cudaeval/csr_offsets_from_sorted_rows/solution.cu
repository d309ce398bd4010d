#include <cuda_runtime.h>
#include <cstddef>

// Step 1 (thread_mapping): one thread per stored entry k (grid-stride loop).
// Step 2 (algorithmic_restructuring): the serial walk (or a count and a scan)
// is replaced by boundary detection, which the sorted input allows:
// row_ptr[r] is the first position whose row is >= r. Entry k with prev = rows[k-1] (-1 for k = 0)
// and cur = rows[k] therefore owns row_ptr[prev+1 .. cur], all equal to k.
// One extra thread (k == nnz, cur = nrows) fills the trailing offsets with
// nnz. Every offset has exactly one writer, so there are no atomics, no scan
// and no race, and nothing relies on zeroed memory.
__global__ void offsets_kernel(int nrows, int nnz, const int* __restrict__ rows, int* __restrict__ row_ptr) {
  int stride = gridDim.x * blockDim.x;
  for (int k = blockIdx.x * blockDim.x + threadIdx.x; k <= nnz; k += stride) {
    int prev = (k == 0) ? -1 : rows[k - 1];
    int cur = (k == nnz) ? nrows : rows[k];
    for (int r = prev + 1; r <= cur; ++r) row_ptr[r] = k;
  }
}

void rowOffsetsFromSortedRows(int nrows, int nnz, const int* rows, int* row_ptr) {
  if (nrows < 0) return;
  int* drows = nullptr;
  int* dptr = nullptr;
  cudaMalloc(&drows, (size_t)(nnz > 0 ? nnz : 1) * sizeof(int));
  cudaMalloc(&dptr, ((size_t)nrows + 1) * sizeof(int));
  if (nnz > 0) cudaMemcpy(drows, rows, (size_t)nnz * sizeof(int), cudaMemcpyHostToDevice);
  int device = 0, sms = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  if (sms <= 0) sms = 80;
  const int block = 256;
  long long work = (long long)nnz + 1;
  long long needed = (work + block - 1) / block;
  long long cap = (long long)sms * 16;
  int grid = (int)(needed < cap ? needed : cap);
  offsets_kernel<<<grid, block>>>(nrows, nnz, drows, dptr);
  cudaMemcpy(row_ptr, dptr, ((size_t)nrows + 1) * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(drows);
  cudaFree(dptr);
}
