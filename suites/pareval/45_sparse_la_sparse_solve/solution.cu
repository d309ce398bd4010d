#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

struct COOElement {
   size_t row, column;
   double value;
};

// Dense Gaussian elimination with partial pivoting on the augmented matrix
// [A | b] (N x (N+1), row-major) on the device: per step one block picks and
// swaps the pivot row, then a tiled kernel updates the trailing submatrix with
// the multipliers and the pivot row staged in shared memory. One block does
// the back substitution.

constexpr int kTileDim = 32;

__global__ void scatterEntries(const COOElement* __restrict__ A, size_t nnz, double* __restrict__ a, size_t w) {
  for (size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x; t < nnz; t += (size_t)gridDim.x * blockDim.x) {
    COOElement e = A[t];
    atomicAdd(&a[e.row * w + e.column], e.value);
  }
}

__global__ void copyRhs(const double* __restrict__ b, double* __restrict__ a, size_t n, size_t w) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    a[i * w + n] = b[i];
  }
}

// One block: find the first row i >= k with the largest |a[i][k]|, swap it with row k.
__global__ void pivotStep(double* a, size_t n, size_t w, size_t k) {
  __shared__ double bestVal[32];
  __shared__ size_t bestIdx[32];
  __shared__ size_t pivotRow;
  double v = -1.0;
  size_t idx = n;
  for (size_t i = k + threadIdx.x; i < n; i += blockDim.x) {
    double m = fabs(a[i * w + k]);
    if (m > v) { v = m; idx = i; }  // rows visited in increasing order: keeps the first
  }
  for (int off = 16; off > 0; off >>= 1) {
    double ov = __shfl_down_sync(0xffffffffu, v, off);
    size_t oi = __shfl_down_sync(0xffffffffu, idx, off);
    if (ov > v || (ov == v && oi < idx)) { v = ov; idx = oi; }
  }
  unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) { bestVal[warp] = v; bestIdx[warp] = idx; }
  __syncthreads();
  if (warp == 0) {
    unsigned warps = blockDim.x >> 5;
    v = lane < warps ? bestVal[lane] : -1.0;
    idx = lane < warps ? bestIdx[lane] : n;
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
}

// Rows i > k, columns j > k (the right-hand side is column n):
// a[i][j] -= (a[i][k] / a[k][k]) * a[k][j].
__global__ void eliminateStep(double* a, size_t n, size_t w, size_t k) {
  __shared__ double mult[kTileDim];
  __shared__ double pivotRow[kTileDim];
  size_t j = k + 1 + blockIdx.x * (size_t)kTileDim + threadIdx.x;
  size_t i0 = k + 1 + blockIdx.y * (size_t)kTileDim;
  if (threadIdx.y == 0) pivotRow[threadIdx.x] = j < w ? a[k * w + j] : 0.0;
  if (threadIdx.y == 1) {
    size_t i = i0 + threadIdx.x;
    mult[threadIdx.x] = i < n ? a[i * w + k] / a[k * w + k] : 0.0;
  }
  __syncthreads();
  if (j < w) {
    for (unsigned r = threadIdx.y; r < kTileDim; r += blockDim.y) {
      size_t i = i0 + r;
      if (i < n) a[i * w + j] -= mult[r] * pivotRow[threadIdx.x];
    }
  }
}

// One block: back substitution on the upper triangle, column by column.
__global__ void backSubstitute(double* a, size_t n, size_t w, double* __restrict__ x) {
  __shared__ double xk;
  for (size_t k = n; k-- > 0;) {
    if (threadIdx.x == 0) {
      xk = a[k * w + n] / a[k * w + k];
      x[k] = xk;
    }
    __syncthreads();
    for (size_t i = threadIdx.x; i < k; i += blockDim.x) a[i * w + n] -= a[i * w + k] * xk;
    __syncthreads();
  }
}

void solveLinearSystem(std::vector<COOElement> const& A, std::vector<double> const& b, std::vector<double> &x, size_t N) {
  if (N == 0) return;
  size_t nnz = A.size(), w = N + 1;
  COOElement* dA = nullptr;
  double *db = nullptr, *da = nullptr, *dx = nullptr;
  cudaMalloc(&dA, (nnz ? nnz : 1) * sizeof(COOElement));
  cudaMalloc(&db, N * sizeof(double));
  cudaMalloc(&da, N * w * sizeof(double));
  cudaMalloc(&dx, N * sizeof(double));
  if (nnz) cudaMemcpy(dA, A.data(), nnz * sizeof(COOElement), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), N * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemset(da, 0, N * w * sizeof(double));
  if (nnz) {
    size_t blocks = (nnz + 255) / 256;
    scatterEntries<<<(unsigned)(blocks < 4096 ? blocks : 4096), 256>>>(dA, nnz, da, w);
  }
  copyRhs<<<(unsigned)((N + 255) / 256), 256>>>(db, da, N, w);
  for (size_t k = 0; k < N; ++k) {
    pivotStep<<<1, 1024>>>(da, N, w, k);
    size_t rows = N - k - 1, cols = w - k - 1;
    if (rows == 0) continue;
    dim3 grid((unsigned)((cols + kTileDim - 1) / kTileDim), (unsigned)((rows + kTileDim - 1) / kTileDim));
    eliminateStep<<<grid, dim3(kTileDim, 8)>>>(da, N, w, k);
  }
  backSubstitute<<<1, 1024>>>(da, N, w, dx);
  cudaMemcpy(x.data(), dx, N * sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(dA);
  cudaFree(db);
  cudaFree(da);
  cudaFree(dx);
}
