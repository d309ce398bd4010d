#include <cuda_runtime.h>

constexpr int kPerThread = 8;  // consecutive outputs produced by each thread

// Merge-path split: the number of elements of a among the first d outputs of
// the merge (a wins ties). a[mid] is among them exactly when a[mid] <= b[d-1-mid].
__device__ int merge_path_split(const int* __restrict__ a, int na, const int* __restrict__ b, int nb, int d) {
  int lo = d - nb > 0 ? d - nb : 0;
  int hi = d < na ? d : na;
  while (lo < hi) {
    int mid = (lo + hi) >> 1;
    if (__ldg(a + mid) <= __ldg(b + d - 1 - mid)) lo = mid + 1; else hi = mid;
  }
  return lo;
}

// Each thread owns outputs [d, d + 8): one diagonal binary search finds where
// its piece starts in a and b, then it merges 8 elements sequentially. Binary
// searches drop from one per element to one per 8 outputs.
__global__ void merge_path_kernel(int na, const int* __restrict__ a, int nb, const int* __restrict__ b,
                                  int* __restrict__ out) {
  int total = na + nb;
  int d = (blockIdx.x * blockDim.x + threadIdx.x) * kPerThread;
  if (d >= total) return;
  int i = merge_path_split(a, na, b, nb, d);
  int j = d - i;
  int end = d + kPerThread < total ? d + kPerThread : total;
  for (int k = d; k < end; ++k) {
    bool take_a = (j >= nb) || (i < na && __ldg(a + i) <= __ldg(b + j));
    out[k] = take_a ? __ldg(a + i++) : __ldg(b + j++);
  }
}

void mergeSortedRuns(int na, const int* a, int nb, const int* b, int* out) {
  int total = na + nb;
  if (total <= 0) return;
  int *da = nullptr, *db = nullptr, *dout = nullptr;
  cudaMalloc(&da, static_cast<size_t>(na > 0 ? na : 1) * sizeof(int));
  cudaMalloc(&db, static_cast<size_t>(nb > 0 ? nb : 1) * sizeof(int));
  cudaMalloc(&dout, static_cast<size_t>(total) * sizeof(int));
  if (na > 0) cudaMemcpy(da, a, static_cast<size_t>(na) * sizeof(int), cudaMemcpyHostToDevice);
  if (nb > 0) cudaMemcpy(db, b, static_cast<size_t>(nb) * sizeof(int), cudaMemcpyHostToDevice);
  int threads = (total + kPerThread - 1) / kPerThread;
  int block = 256;
  int grid = (threads + block - 1) / block;
  merge_path_kernel<<<grid, block>>>(na, da, nb, db, dout);
  cudaMemcpy(out, dout, static_cast<size_t>(total) * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dout);
}
