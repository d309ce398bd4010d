#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

struct COOElement {
   size_t row, column;
   double value;
};

// Right-looking LU without pivoting, in place in the U buffer: step k writes
// column k of L and updates the trailing submatrix, with the multipliers and
// the pivot row of each 32 x 32 tile staged in shared memory. A last pass
// clears U below the diagonal and puts ones on L's diagonal.

constexpr int kTileDim = 32;

__global__ void scatterEntries(const COOElement* __restrict__ A, size_t nnz, double* __restrict__ a, size_t n) {
  for (size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x; t < nnz; t += (size_t)gridDim.x * blockDim.x) {
    COOElement e = A[t];
    atomicAdd(&a[e.row * n + e.column], e.value);
  }
}

// Rows i > k: L[i][k] = a[i][k] / a[k][k]; columns j > k: a[i][j] -= L[i][k] * a[k][j].
__global__ void eliminateStep(double* a, double* __restrict__ L, size_t n, size_t k) {
  __shared__ double mult[kTileDim];
  __shared__ double pivotRow[kTileDim];
  size_t j = k + 1 + blockIdx.x * (size_t)kTileDim + threadIdx.x;
  size_t i0 = k + 1 + blockIdx.y * (size_t)kTileDim;
  if (threadIdx.y == 0) pivotRow[threadIdx.x] = j < n ? a[k * n + j] : 0.0;
  if (threadIdx.y == 1) {
    size_t i = i0 + threadIdx.x;
    double m = i < n ? a[i * n + k] / a[k * n + k] : 0.0;
    mult[threadIdx.x] = m;
    if (blockIdx.x == 0 && i < n) L[i * n + k] = m;
  }
  __syncthreads();
  if (j < n) {
    for (unsigned r = threadIdx.y; r < kTileDim; r += blockDim.y) {
      size_t i = i0 + r;
      if (i < n) a[i * n + j] -= mult[r] * pivotRow[threadIdx.x];
    }
  }
}

__global__ void finish(double* __restrict__ L, double* __restrict__ U, size_t n) {
  size_t total = n * n;
  for (size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x; t < total; t += (size_t)gridDim.x * blockDim.x) {
    size_t i = t / n, j = t % n;
    if (i > j) U[t] = 0.0;
    if (i == j) L[t] = 1.0;
  }
}

void luFactorize(std::vector<COOElement> const& A, std::vector<double> &L, std::vector<double> &U, size_t N) {
  if (N == 0) return;
  size_t nnz = A.size(), total = N * N;
  COOElement* dA = nullptr;
  double *dL = nullptr, *dU = nullptr;
  cudaMalloc(&dA, (nnz ? nnz : 1) * sizeof(COOElement));
  cudaMalloc(&dL, total * sizeof(double));
  cudaMalloc(&dU, total * sizeof(double));
  if (nnz) cudaMemcpy(dA, A.data(), nnz * sizeof(COOElement), cudaMemcpyHostToDevice);
  cudaMemset(dL, 0, total * sizeof(double));
  cudaMemset(dU, 0, total * sizeof(double));
  if (nnz) {
    size_t blocks = (nnz + 255) / 256;
    scatterEntries<<<(unsigned)(blocks < 4096 ? blocks : 4096), 256>>>(dA, nnz, dU, N);
  }
  for (size_t k = 0; k + 1 < N; ++k) {
    size_t rest = N - k - 1;
    unsigned tiles = (unsigned)((rest + kTileDim - 1) / kTileDim);
    eliminateStep<<<dim3(tiles, tiles), dim3(kTileDim, 8)>>>(dU, dL, N, k);
  }
  size_t blocks = (total + 255) / 256;
  finish<<<(unsigned)(blocks < 4096 ? blocks : 4096), 256>>>(dL, dU, N);
  cudaMemcpy(L.data(), dL, total * sizeof(double), cudaMemcpyDeviceToHost);
  cudaMemcpy(U.data(), dU, total * sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(dA);
  cudaFree(dL);
  cudaFree(dU);
}
