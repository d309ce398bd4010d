#include <cuda_runtime.h>
#include <cstdint>

#define THREADS 256
#define GROUP 8  // lanes per vertex

// Eight lanes per vertex: lane s checks neighbours begin + s, + 8, ... so a
// group reads its list contiguously and a warp waits for its longest list in
// rounds of eight rather than one neighbour at a time. After each round the
// group's lanes share what they found (one warp vote) and a beaten group
// stops reading.
__global__ void luby_group(int n, const int* row_ptr, const int* col_idx, const int* prio, const uint8_t* active,
                           uint8_t* selected, int* count) {
  __shared__ int block_winners;
  if (threadIdx.x == 0) block_winners = 0;
  __syncthreads();
  long long gid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  long long v = gid / GROUP;
  int sub = threadIdx.x % GROUP;
  int group_shift = threadIdx.x & 24;  // this group's first lane in its warp
  bool candidate = v < n && active[v] != 0;
  int pv = 0, base = 0, end = 0;
  if (candidate) {
    pv = prio[v];
    base = row_ptr[v];
    end = row_ptr[v + 1];
  }
  bool beaten = false;
  // Rounds of eight neighbours per group. The loop condition and both votes
  // are warp-wide, so all 32 lanes run the same collectives; a group leaves
  // the work (not the loop) once one of its lanes has found a stronger one.
  while (__any_sync(0xffffffffu, !beaten && base < end)) {
    if (!beaten && base + sub < end) {
      int u = col_idx[base + sub];
      if (active[u] && prio[u] > pv) beaten = true;
    }
    unsigned votes = __ballot_sync(0xffffffffu, beaten);
    if ((votes >> group_shift) & 0xffu) beaten = true;
    base += GROUP;
  }
  bool wins = candidate && !beaten;
  if (sub == 0 && v < n) selected[v] = wins ? 1 : 0;
  int warp_winners = __popc(__ballot_sync(0xffffffffu, wins && sub == 0));
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
  long long threads = (long long)n * GROUP;
  luby_group<<<(unsigned)((threads + THREADS - 1) / THREADS), THREADS>>>(n, d_ptr, d_col, d_prio, d_active, d_sel,
                                                                         d_count);
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
