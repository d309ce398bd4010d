#include <cstddef>

struct COOElement {
   size_t row, column;
   double value;
};

// Kernel form, one launch with >= sizeA threads; L and U hold zeros on entry.
// Elimination needs a barrier between steps and there is no grid-wide one, so
// block 0 does the whole factorisation (the other blocks exit): it assembles A
// in U, then for each k computes column k of L and updates the trailing
// submatrix of U, with __syncthreads between the phases; finally it clears U
// below the diagonal and sets L's diagonal to one.
__global__ void luFactorize(const COOElement *A, size_t sizeA, double *L, double *U, size_t N) {
  if (blockIdx.x != 0) return;
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = (blockDim.x + 31) >> 5;
  for (size_t t = threadIdx.x; t < sizeA; t += blockDim.x) {
    COOElement e = A[t];
    atomicAdd(&U[e.row * N + e.column], e.value);  // repeated positions add up
  }
  __syncthreads();
  for (size_t k = 0; k + 1 < N; ++k) {
    double pivot = U[k * N + k];
    for (size_t i = k + 1 + threadIdx.x; i < N; i += blockDim.x) L[i * N + k] = U[i * N + k] / pivot;
    __syncthreads();
    // One warp per row, lanes across the columns (coalesced, no index division).
    for (size_t i = k + 1 + warp; i < N; i += warps) {
      double l = L[i * N + k];
      for (size_t j = k + 1 + lane; j < N; j += 32) U[i * N + j] -= l * U[k * N + j];
    }
    __syncthreads();
  }
  for (size_t t = threadIdx.x; t < N * N; t += blockDim.x) {
    size_t i = t / N, j = t % N;
    if (i > j) U[t] = 0.0;
    if (i == j) L[t] = 1.0;
  }
}
