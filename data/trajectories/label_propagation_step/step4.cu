#include <cuda_runtime.h>
#include <climits>

#define GROUP 8  // lanes per vertex

// Eight lanes per vertex with an xor-shuffle minimum per group; the change
// counter is now aggregated with __ballot_sync/__popc per warp and a shared
// counter per block, so the global counter sees one atomic per block.
__global__ void min_label_group(int n, const int* __restrict__ row_ptr, const int* __restrict__ col_idx,
                                const int* __restrict__ labels, int* __restrict__ new_labels, int* changed) {
  __shared__ int block_changed;
  if (threadIdx.x == 0) block_changed = 0;
  __syncthreads();
  long long gid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  long long v = gid / GROUP;
  int sub = (int)(gid % GROUP);
  int m = INT_MAX;
  int own = 0;
  if (v < n) {
    own = __ldg(&labels[v]);
    m = own;
    int end = __ldg(&row_ptr[v + 1]);
    for (int k = __ldg(&row_ptr[v]) + sub; k < end; k += GROUP) m = min(m, __ldg(&labels[__ldg(&col_idx[k])]));
  }
  for (int off = GROUP / 2; off > 0; off >>= 1) m = min(m, __shfl_xor_sync(0xffffffffu, m, off, GROUP));
  bool leader = v < n && sub == 0;
  if (leader) new_labels[v] = m;
  // Change counting: one ballot per warp collects the group leaders' flags,
  // lane 0 adds the popcount to a shared block counter, and thread 0 adds the
  // block's total to the global counter once.
  unsigned flags = __ballot_sync(0xffffffffu, leader && m != own);
  if ((threadIdx.x & 31) == 0 && flags != 0u) atomicAdd(&block_changed, __popc(flags));
  __syncthreads();
  if (threadIdx.x == 0 && block_changed != 0) atomicAdd(changed, block_changed);
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
  long long threads = (long long)n * GROUP;
  min_label_group<<<(unsigned)((threads + block - 1) / block), block>>>(n, d_ptr, d_col, d_lab, d_new, d_changed);
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
