#include <cuda_runtime.h>

// First index q in [lo, hi) with a[q] >= key.
__device__ int lower_bound_dev(const int* a, int lo, int hi, int key) {
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    if (a[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// Each entry p of the first list finds its run of equal indices in the second
// list by binary search; the product with the run's value sum is added to a
// per-thread partial (grid-stride), and each thread adds its partial to the
// global total atomically.
__global__ void sdot_search(int na, const int* ia, const double* va, int nb, const int* ib, const double* vb,
                            double* out) {
  double s = 0.0;
  for (int p = blockIdx.x * blockDim.x + threadIdx.x; p < na; p += gridDim.x * blockDim.x) {
    int key = ia[p];
    int q = lower_bound_dev(ib, 0, nb, key);
    double sb = 0.0;
    while (q < nb && ib[q] == key) sb += vb[q++];
    s += va[p] * sb;
  }
  atomicAdd(out, s);
}

double sparse_dot_sorted(int na, const int* ia, const double* va, int nb, const int* ib, const double* vb) {
  if (na <= 0 || nb <= 0) return 0.0;
  int *d_ia = nullptr, *d_ib = nullptr;
  double *d_va = nullptr, *d_vb = nullptr, *d_out = nullptr;
  cudaMalloc(&d_ia, (size_t)na * sizeof(int));
  cudaMalloc(&d_va, (size_t)na * sizeof(double));
  cudaMalloc(&d_ib, (size_t)nb * sizeof(int));
  cudaMalloc(&d_vb, (size_t)nb * sizeof(double));
  cudaMalloc(&d_out, sizeof(double));
  cudaMemcpy(d_ia, ia, (size_t)na * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_va, va, (size_t)na * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemcpy(d_ib, ib, (size_t)nb * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_vb, vb, (size_t)nb * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemset(d_out, 0, sizeof(double));
  int block = 256;
  int want = (na + block - 1) / block;
  int grid = want < 1024 ? want : 1024;
  sdot_search<<<grid, block>>>(na, d_ia, d_va, nb, d_ib, d_vb, d_out);
  double result = 0.0;
  cudaMemcpy(&result, d_out, sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(d_ia);
  cudaFree(d_va);
  cudaFree(d_ib);
  cudaFree(d_vb);
  cudaFree(d_out);
  return result;
}
