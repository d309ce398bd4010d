#include <cuda_runtime.h>

// Number of elements of s[0..len) strictly less than key (lower bound).
__device__ int count_less(const int* s, int len, int key) {
  int lo = 0, hi = len;
  while (lo < hi) {
    int mid = (lo + hi) >> 1;
    if (s[mid] < key) lo = mid + 1; else hi = mid;
  }
  return lo;
}

// Number of elements of s[0..len) less than or equal to key (upper bound).
__device__ int count_less_equal(const int* s, int len, int key) {
  int lo = 0, hi = len;
  while (lo < hi) {
    int mid = (lo + hi) >> 1;
    if (s[mid] <= key) lo = mid + 1; else hi = mid;
  }
  return lo;
}

// One thread per input element: its output slot is its own index plus the
// number of elements of the other array that precede it (strictly smaller
// b's for an a element, smaller-or-equal a's for a b element: a wins ties).
__global__ void merge_rank_kernel(int na, const int* a, int nb, const int* b, int* out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < na) {
    int key = a[t];
    out[t + count_less(b, nb, key)] = key;
  } else if (t < na + nb) {
    int j = t - na;
    int key = b[j];
    out[j + count_less_equal(a, na, key)] = key;
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
  int block = 256;
  int grid = (total + block - 1) / block;
  merge_rank_kernel<<<grid, block>>>(na, da, nb, db, dout);
  cudaMemcpy(out, dout, static_cast<size_t>(total) * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dout);
}
