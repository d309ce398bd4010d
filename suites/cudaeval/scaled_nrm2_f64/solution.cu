#include <cuda_runtime.h>
#include <math.h>

// A summary (s, q) stands for the sum of squares s^2 * q of the entries it
// has absorbed (s = their largest magnitude); (0, 0) is the empty summary.
//
// Step 1 (thread_mapping): every thread folds entries into its own summary.
// Step 2 (grid_stride_loop): a bounded grid strides over x, so each thread
// absorbs many entries before any merging.
// Step 3 (algorithmic_restructuring): the serial recurrence becomes an
// associative merge: two summaries combine by rescaling the one with the
// smaller s to the larger s, which is what lets the scan become a tree.
// Step 4 (warp_shuffle_reduction): the 32 summaries of a warp are merged with
// __shfl_down_sync, no shared memory.
// Step 5 (block_tree_reduction): warp results meet in shared memory and the
// first warp merges them; block results are merged by a one-block kernel
// that also forms s * sqrt(q) on the device.
constexpr int kThreads = 256;

struct Nrm2Pair {
  double s;
  double q;
};

__device__ __forceinline__ void absorb(Nrm2Pair& p, double v) {
  if (v != 0.0) {
    double a = fabs(v);
    if (p.s < a) {
      double r = p.s / a;
      p.q = 1.0 + p.q * r * r;
      p.s = a;
    } else {
      double r = a / p.s;
      p.q += r * r;
    }
  }
}

__device__ __forceinline__ Nrm2Pair merge(Nrm2Pair a, Nrm2Pair b) {
  if (a.s < b.s) {
    Nrm2Pair t = a;
    a = b;
    b = t;
  }
  if (a.s == 0.0) return a;  // both empty
  double r = b.s / a.s;
  a.q += b.q * r * r;
  return a;
}

__device__ Nrm2Pair block_merge(Nrm2Pair p) {
  __shared__ double sh_s[kThreads / 32];
  __shared__ double sh_q[kThreads / 32];
  for (int off = 16; off > 0; off >>= 1) {
    Nrm2Pair o;
    o.s = __shfl_down_sync(0xffffffffu, p.s, off);
    o.q = __shfl_down_sync(0xffffffffu, p.q, off);
    p = merge(p, o);
  }
  int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  if (lane == 0) {
    sh_s[warp] = p.s;
    sh_q[warp] = p.q;
  }
  __syncthreads();
  if (warp == 0) {
    Nrm2Pair w = {0.0, 0.0};
    if (lane < kThreads / 32) {
      w.s = sh_s[lane];
      w.q = sh_q[lane];
    }
    for (int off = 16; off > 0; off >>= 1) {
      Nrm2Pair o;
      o.s = __shfl_down_sync(0xffffffffu, w.s, off);
      o.q = __shfl_down_sync(0xffffffffu, w.q, off);
      w = merge(w, o);
    }
    p = w;
  }
  return p;  // valid in thread 0
}

__global__ void nrm2_partial_kernel(int n, const double* __restrict__ x,
                                    Nrm2Pair* __restrict__ partial) {
  Nrm2Pair p = {0.0, 0.0};
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    absorb(p, __ldg(&x[i]));
  p = block_merge(p);
  if (threadIdx.x == 0) partial[blockIdx.x] = p;
}

__global__ void nrm2_final_kernel(int count, const Nrm2Pair* __restrict__ partial,
                                  double* __restrict__ result) {
  Nrm2Pair p = {0.0, 0.0};
  for (int i = threadIdx.x; i < count; i += blockDim.x) p = merge(p, partial[i]);
  p = block_merge(p);
  if (threadIdx.x == 0) *result = p.s * sqrt(p.q);
}

double scaledNrm2(int n, const double* x) {
  int nn = n > 0 ? n : 0;
  double* d_x = nullptr;
  double* d_result = nullptr;
  Nrm2Pair* d_partial = nullptr;
  int blocks = (nn + kThreads - 1) / kThreads;
  int grid = blocks < 1024 ? blocks : 1024;
  if (grid < 1) grid = 1;
  cudaMalloc(&d_x, (size_t)(nn > 0 ? nn : 1) * sizeof(double));
  cudaMalloc(&d_partial, (size_t)grid * sizeof(Nrm2Pair));
  cudaMalloc(&d_result, sizeof(double));
  if (nn > 0) cudaMemcpy(d_x, x, (size_t)nn * sizeof(double), cudaMemcpyHostToDevice);
  nrm2_partial_kernel<<<grid, kThreads>>>(nn, d_x, d_partial);
  nrm2_final_kernel<<<1, kThreads>>>(grid, d_partial, d_result);
  double result = 0.0;
  cudaMemcpy(&result, d_result, sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(d_x);
  cudaFree(d_partial);
  cudaFree(d_result);
  return result;
}
