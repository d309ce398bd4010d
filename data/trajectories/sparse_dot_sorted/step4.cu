#include <cuda_runtime.h>

#define BLOCK 256
#define CHUNK 1024  // entries of the first list per block
#define WIN 2048    // largest window of the second list staged in shared memory

__device__ __forceinline__ double warp_sum(double v) {
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  return v;
}

// First q in [lo, hi) with a[q] >= key (or > key when upper is true).
__device__ int search_dev(const int* a, int lo, int hi, int key, bool upper) {
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    int v = a[mid];
    if (v < key || (upper && v == key)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// Each block owns a contiguous chunk of the first list. Because both lists are
// sorted, every match of the chunk lies in one window of the second list,
// [lower_bound(first key), upper_bound(last key)). The block finds the window
// once, copies it into shared memory when it fits (coalesced), and all binary
// searches of the chunk then run in shared memory over the short window.
__global__ void sdot_window(int na, const int* __restrict__ ia, const double* __restrict__ va, int nb,
                            const int* __restrict__ ib, const double* __restrict__ vb, double* out) {
  __shared__ int s_ib[WIN];
  __shared__ double s_vb[WIN];
  __shared__ int s_lo, s_hi;
  __shared__ double warp_tot[BLOCK / 32];
  int p0 = blockIdx.x * CHUNK;
  int p1 = min(na, p0 + CHUNK);
  if (threadIdx.x == 0) {
    s_lo = search_dev(ib, 0, nb, __ldg(&ia[p0]), false);
    s_hi = search_dev(ib, 0, nb, __ldg(&ia[p1 - 1]), true);
  }
  __syncthreads();
  int lo = s_lo, hi = s_hi;
  int w = hi - lo;
  bool staged = w <= WIN;  // same value in every thread of the block
  if (staged) {
    for (int e = threadIdx.x; e < w; e += BLOCK) {
      s_ib[e] = __ldg(&ib[lo + e]);
      s_vb[e] = __ldg(&vb[lo + e]);
    }
  }
  __syncthreads();

  double s = 0.0;
  for (int p = p0 + threadIdx.x; p < p1; p += BLOCK) {
    int key = __ldg(&ia[p]);
    double sb = 0.0;
    if (staged) {
      int q = search_dev(s_ib, 0, w, key, false);
      while (q < w && s_ib[q] == key) sb += s_vb[q++];
    } else {
      int q = search_dev(ib, lo, hi, key, false);
      while (q < hi && __ldg(&ib[q]) == key) sb += __ldg(&vb[q++]);
    }
    s += __ldg(&va[p]) * sb;
  }

  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  s = warp_sum(s);
  if (lane == 0) warp_tot[warp] = s;
  __syncthreads();
  if (warp == 0) {
    s = (lane < BLOCK / 32) ? warp_tot[lane] : 0.0;
    s = warp_sum(s);
    if (lane == 0) atomicAdd(out, s);
  }
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
  int grid = (na + CHUNK - 1) / CHUNK;
  sdot_window<<<grid, BLOCK>>>(na, d_ia, d_va, nb, d_ib, d_vb, d_out);
  double result = 0.0;
  cudaMemcpy(&result, d_out, sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(d_ia);
  cudaFree(d_va);
  cudaFree(d_ib);
  cudaFree(d_vb);
  cudaFree(d_out);
  return result;
}
