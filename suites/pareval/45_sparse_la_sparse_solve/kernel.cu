#include <cmath>
#include <cstddef>

struct COOElement {
   size_t row, column;
   double value;
};

// Kernel form, one launch with >= sizeA threads; x holds zeros on entry.
// Elimination needs a barrier between steps and there is no grid-wide one, so
// block 0 solves the whole system (the other blocks exit): Gaussian
// elimination with partial pivoting on the augmented matrix [A | b], kept in a
// static device buffer (N may be at most kMaxN), then back substitution.

constexpr size_t kMaxN = 2048;

__device__ double gWork[kMaxN * (kMaxN + 1)];

__global__ void solveLinearSystem(const COOElement *A, size_t sizeA, const double *b, double *x, size_t N) {
  __shared__ double bestVal[32];
  __shared__ size_t bestIdx[32];
  __shared__ size_t pivotRow;
  __shared__ double xk;
  if (blockIdx.x != 0 || N > kMaxN) return;
  const size_t w = N + 1;
  double* a = gWork;
  for (size_t t = threadIdx.x; t < N * w; t += blockDim.x) a[t] = (t % w == N) ? b[t / w] : 0.0;
  __syncthreads();
  for (size_t t = threadIdx.x; t < sizeA; t += blockDim.x) {
    COOElement e = A[t];
    atomicAdd(&a[e.row * w + e.column], e.value);  // repeated positions add up
  }
  __syncthreads();
  unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = (blockDim.x + 31) >> 5;
  for (size_t k = 0; k < N; ++k) {
    // Pivot: the first row i >= k with the largest |a[i][k]|.
    double v = -1.0;
    size_t idx = N;
    for (size_t i = k + threadIdx.x; i < N; i += blockDim.x) {
      double m = fabs(a[i * w + k]);
      if (m > v) { v = m; idx = i; }
    }
    for (int off = 16; off > 0; off >>= 1) {
      double ov = __shfl_down_sync(0xffffffffu, v, off);
      size_t oi = __shfl_down_sync(0xffffffffu, idx, off);
      if (ov > v || (ov == v && oi < idx)) { v = ov; idx = oi; }
    }
    if (lane == 0) { bestVal[warp] = v; bestIdx[warp] = idx; }
    __syncthreads();
    if (warp == 0) {
      v = lane < warps ? bestVal[lane] : -1.0;
      idx = lane < warps ? bestIdx[lane] : N;
      for (int off = 16; off > 0; off >>= 1) {
        double ov = __shfl_down_sync(0xffffffffu, v, off);
        size_t oi = __shfl_down_sync(0xffffffffu, idx, off);
        if (ov > v || (ov == v && oi < idx)) { v = ov; idx = oi; }
      }
      if (lane == 0) pivotRow = idx;
    }
    __syncthreads();
    size_t p = pivotRow;
    if (p != k) {
      for (size_t j = k + threadIdx.x; j < w; j += blockDim.x) {
        double t = a[k * w + j];
        a[k * w + j] = a[p * w + j];
        a[p * w + j] = t;
      }
    }
    __syncthreads();
    // Multipliers into column k, then the trailing update (right-hand side included).
    double pivot = a[k * w + k];
    for (size_t i = k + 1 + threadIdx.x; i < N; i += blockDim.x) a[i * w + k] /= pivot;
    __syncthreads();
    // One warp per row, lanes across the columns (coalesced, no index division).
    for (size_t i = k + 1 + warp; i < N; i += warps) {
      double l = a[i * w + k];
      for (size_t j = k + 1 + lane; j < w; j += 32) a[i * w + j] -= l * a[k * w + j];
    }
    __syncthreads();
  }
  for (size_t k = N; k-- > 0;) {
    if (threadIdx.x == 0) {
      xk = a[k * w + N] / a[k * w + k];
      x[k] = xk;
    }
    __syncthreads();
    for (size_t i = threadIdx.x; i < k; i += blockDim.x) a[i * w + N] -= a[i * w + k] * xk;
    __syncthreads();
  }
}
