#include <cuda_runtime.h>
#include <cstdint>

#define THREADS 256

// Winners are counted with a vote: __ballot_sync + __popc gives each warp's
// total, lane 0 adds it to a shared block counter, and thread 0 adds the
// block's total to the global counter: one global atomic per block instead of
// one per winner. No thread returns before the barrier.
__global__ void luby_thread_agg(int n, const int* row_ptr, const int* col_idx, const int* prio,
                                const uint8_t* active, uint8_t* selected, int* count) {
  __shared__ int block_winners;
  if (threadIdx.x == 0) block_winners = 0;
  __syncthreads();
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  bool wins = false;
  if (v < n) {
    wins = active[v] != 0;
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
  }
  int warp_winners = __popc(__ballot_sync(0xffffffffu, wins));
  if ((threadIdx.x & 31) == 0 && warp_winners != 0) atomicAdd(&block_winners, warp_winners);
  __syncthreads();
  if (threadIdx.x == 0 && block_winners != 0) atomicAdd(count, block_winners);
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
  luby_thread_agg<<<(n + THREADS - 1) / THREADS, THREADS>>>(n, d_ptr, d_col, d_prio, d_active, d_sel, d_count);
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
