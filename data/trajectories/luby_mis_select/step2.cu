#include <cuda_runtime.h>
#include <cstdint>

// An inactive vertex cannot win, and a vertex has lost as soon as one active
// neighbour outranks it: both leave before reading the rest of the list.
__global__ void luby_thread_exit(int n, const int* row_ptr, const int* col_idx, const int* prio,
                                 const uint8_t* active, uint8_t* selected, int* count) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  bool wins = active[v] != 0;
  if (wins) {
    int pv = prio[v];
    int end = row_ptr[v + 1];
    for (int k = row_ptr[v]; k < end; ++k) {
      int u = col_idx[k];
      if (active[u] && prio[u] > pv) {
        wins = false;
        break;
      }
    }
  }
  selected[v] = wins ? 1 : 0;
  if (wins) atomicAdd(count, 1);
}

int luby_select(int n, const int* row_ptr, const int* col_idx, const int* prio, const uint8_t* active,
                uint8_t* selected) {
  if (n <= 0) return 0;
  int nnz = row_ptr[n];
  int *d_ptr = nullptr, *d_col = nullptr, *d_prio = nullptr, *d_count = nullptr;
  uint8_t *d_active = nullptr, *d_sel = nullptr;
  cudaMalloc(&d_ptr, (size_t)(n + 1) * sizeof(int));
  cudaMalloc(&d_col, (size_t)(nnz > 0 ? nnz : 1) * sizeof(int));
  cudaMalloc(&d_prio, (size_t)n * sizeof(int));
  cudaMalloc(&d_active, (size_t)n);
  cudaMalloc(&d_sel, (size_t)n);
  cudaMalloc(&d_count, sizeof(int));
  cudaMemcpy(d_ptr, row_ptr, (size_t)(n + 1) * sizeof(int), cudaMemcpyHostToDevice);
  if (nnz > 0) cudaMemcpy(d_col, col_idx, (size_t)nnz * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_prio, prio, (size_t)n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_active, active, (size_t)n, cudaMemcpyHostToDevice);
  cudaMemset(d_count, 0, sizeof(int));
  luby_thread_exit<<<(n + 255) / 256, 256>>>(n, d_ptr, d_col, d_prio, d_active, d_sel, d_count);
  int count = 0;
  cudaMemcpy(&count, d_count, sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(selected, d_sel, (size_t)n, cudaMemcpyDeviceToHost);
  cudaFree(d_ptr);
  cudaFree(d_col);
  cudaFree(d_prio);
  cudaFree(d_active);
  cudaFree(d_sel);
  cudaFree(d_count);
  return count;
}
