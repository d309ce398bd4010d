#include <cstddef>

struct COOElement {
   size_t row, column;
   double value;
};

// Kernel form, one launch with >= sizeA threads; y holds its input on entry.
// Scaling y by beta and adding the products must not interleave, so each
// thread owns whole rows (grid-stride over the M rows): it streams all entries
// through shared memory in tiles, sums those of its row, and writes
// y[row] = alpha * sum + beta * y[row] once. No atomics, deterministic.

constexpr unsigned kTile = 1024;

__global__ void spmv(double alpha, const COOElement *A, size_t sizeA, const double *x, double beta, double *y, size_t M, size_t N) {
  __shared__ size_t tileRow[kTile];
  __shared__ size_t tileCol[kTile];
  __shared__ double tileVal[kTile];
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t rowBase = blockIdx.x * (size_t)blockDim.x; rowBase < M; rowBase += stride) {
    size_t row = rowBase + threadIdx.x;
    double sum = 0.0;
    for (size_t base = 0; base < sizeA; base += kTile) {
      for (unsigned t = threadIdx.x; t < kTile; t += blockDim.x) {
        size_t e = base + t;
        if (e < sizeA) {
          tileRow[t] = A[e].row;
          tileCol[t] = A[e].column;
          tileVal[t] = A[e].value;
        }
      }
      __syncthreads();
      if (row < M) {
        unsigned count = (unsigned)(sizeA - base < kTile ? sizeA - base : kTile);
        for (unsigned t = 0; t < count; ++t) {
          if (tileRow[t] == row) sum += tileVal[t] * x[tileCol[t]];
        }
      }
      __syncthreads();
    }
    if (row < M) y[row] = alpha * sum + beta * y[row];
  }
}
