#include <cstddef>

struct COOElement {
   size_t row, column;
   double value;
};

// Kernel form, one launch with >= sizeA threads; Y holds zeros on entry.
// Thread t takes entry t of A and streams X through shared memory in tiles;
// every entry of X in row A[t].column contributes A[t].value * X.value to
// Y[A[t].row][X.column] (atomicAdd: several entries of A hit the same row of Y).

constexpr unsigned kTile = 1024;

__global__ void spmm(const COOElement *A, size_t sizeA, const COOElement *X, size_t sizeX, double *Y, size_t M, size_t K, size_t N) {
  __shared__ size_t tileRow[kTile];
  __shared__ size_t tileCol[kTile];
  __shared__ double tileVal[kTile];
  size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  bool active = t < sizeA;
  COOElement a = {0, 0, 0.0};
  if (active) a = A[t];
  for (size_t base = 0; base < sizeX; base += kTile) {
    for (unsigned s = threadIdx.x; s < kTile; s += blockDim.x) {
      size_t e = base + s;
      if (e < sizeX) {
        tileRow[s] = X[e].row;
        tileCol[s] = X[e].column;
        tileVal[s] = X[e].value;
      }
    }
    __syncthreads();
    if (active) {
      unsigned count = (unsigned)(sizeX - base < kTile ? sizeX - base : kTile);
      for (unsigned s = 0; s < count; ++s) {
        if (tileRow[s] == a.column) atomicAdd(&Y[a.row * N + tileCol[s]], a.value * tileVal[s]);
      }
    }
    __syncthreads();
  }
}
