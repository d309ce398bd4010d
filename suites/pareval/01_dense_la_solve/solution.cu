#include <cuda_runtime.h>
#include <cmath>
#include <cstddef>
#include <vector>

// Gaussian elimination with partial pivoting on the augmented matrix [A | b]
// (N rows of N + 1 doubles) kept on the device:
//   per step k: pivot_swap (one block: arg-max of |column k| below the
//   diagonal by warp shuffles, ties to the lowest row, then the row swap) and
//   eliminate (2-D grid: trailing update of rows > k, columns > k including b);
// then back_substitute (one block, column-oriented: x[i] from the diagonal,
// then all threads remove its contribution from the rows above).

__global__ void pivot_swap(double* __restrict__ M, int N, int k) {
  const int W = N + 1;
  __shared__ double sv[32];
  __shared__ int si[32];
  double best = -1.0;
  int bi = N;
  for (int i = k + threadIdx.x; i < N; i += blockDim.x) {
    double v = fabs(M[(size_t)i * W + k]);
    if (v > best) { best = v; bi = i; }  // increasing i: first maximum kept
  }
  for (int off = 16; off > 0; off >>= 1) {
    double ov = __shfl_down_sync(0xffffffffu, best, off);
    int oi = __shfl_down_sync(0xffffffffu, bi, off);
    if (ov > best || (ov == best && oi < bi)) { best = ov; bi = oi; }
  }
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) { sv[warp] = best; si[warp] = bi; }
  __syncthreads();
  if (warp == 0) {
    const int nw = (blockDim.x + 31) >> 5;
    best = lane < nw ? sv[lane] : -1.0;
    bi = lane < nw ? si[lane] : N;
    for (int off = 16; off > 0; off >>= 1) {
      double ov = __shfl_down_sync(0xffffffffu, best, off);
      int oi = __shfl_down_sync(0xffffffffu, bi, off);
      if (ov > best || (ov == best && oi < bi)) { best = ov; bi = oi; }
    }
    if (lane == 0) si[0] = bi;
  }
  __syncthreads();
  const int p = si[0];
  if (p != k && p < N) {
    for (int j = k + threadIdx.x; j < W; j += blockDim.x) {
      double t = M[(size_t)k * W + j];
      M[(size_t)k * W + j] = M[(size_t)p * W + j];
      M[(size_t)p * W + j] = t;
    }
  }
}

__global__ void eliminate(double* __restrict__ M, int N, int k) {
  const int W = N + 1;
  const int j = k + 1 + (int)(blockIdx.x * blockDim.x + threadIdx.x);
  const int i = k + 1 + (int)(blockIdx.y * blockDim.y + threadIdx.y);
  if (i >= N || j >= W) return;
  const double l = M[(size_t)i * W + k] / M[(size_t)k * W + k];
  M[(size_t)i * W + j] = __dsub_rn(M[(size_t)i * W + j], __dmul_rn(l, M[(size_t)k * W + j]));
}

__global__ void back_substitute(const double* __restrict__ M, double* __restrict__ x, int N) {
  const int W = N + 1;
  // x starts as the eliminated right-hand side and becomes the solution from
  // the bottom up.
  for (int i = threadIdx.x; i < N; i += blockDim.x) x[i] = M[(size_t)i * W + N];
  __syncthreads();
  for (int i = N - 1; i >= 0; --i) {
    const double xi = x[i] / M[(size_t)i * W + i];
    __syncthreads();  // everyone has read x[i] before it is overwritten
    if (threadIdx.x == 0) x[i] = xi;
    for (int r = threadIdx.x; r < i; r += blockDim.x) x[r] -= M[(size_t)r * W + i] * xi;
    __syncthreads();
  }
}

void solveLinearSystem(std::vector<double> const& A, std::vector<double> const& b, std::vector<double> &x, size_t N) {
  if (N == 0) return;
  const int n = (int)N, W = n + 1;
  double *dM = nullptr, *dx = nullptr;
  cudaMalloc(&dM, N * (N + 1) * sizeof(double));
  cudaMalloc(&dx, N * sizeof(double));
  // [A | b]: rows of A with b appended as column N
  cudaMemcpy2D(dM, W * sizeof(double), A.data(), N * sizeof(double), N * sizeof(double), N,
               cudaMemcpyHostToDevice);
  cudaMemcpy2D(dM + n, W * sizeof(double), b.data(), sizeof(double), sizeof(double), N,
               cudaMemcpyHostToDevice);
  dim3 eb(32, 8);
  for (int k = 0; k < n; ++k) {
    pivot_swap<<<1, 1024>>>(dM, n, k);
    int cols = W - (k + 1), rows = n - (k + 1);
    if (rows > 0) {
      dim3 eg((unsigned)((cols + eb.x - 1) / eb.x), (unsigned)((rows + eb.y - 1) / eb.y));
      eliminate<<<eg, eb>>>(dM, n, k);
    }
  }
  back_substitute<<<1, 1024>>>(dM, dx, n);
  cudaMemcpy(x.data(), dx, N * sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(dM);
  cudaFree(dx);
}
