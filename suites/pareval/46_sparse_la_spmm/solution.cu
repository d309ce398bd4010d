#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

struct COOElement {
   size_t row, column;
   double value;
};

// X is bucketed by row on the device (count, scan, fill); then one warp per
// entry of A walks the matching row of X and adds the products into Y.

constexpr unsigned kScanBlock = 1024;

__global__ void countRows(const COOElement* __restrict__ X, size_t nnzX, unsigned* __restrict__ counts) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < nnzX; i += (size_t)gridDim.x * blockDim.x) {
    atomicAdd(&counts[X[i].row], 1u);
  }
}

// Single block: exclusive scan of counts[0..k) into start[0..k], start[k] = total.
__global__ void scanCounts(const unsigned* __restrict__ counts, unsigned* __restrict__ start, size_t k) {
  __shared__ unsigned warpSums[32];
  __shared__ unsigned total;
  unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  unsigned carry = 0;
  for (size_t base = 0; base < k; base += kScanBlock) {
    size_t i = base + threadIdx.x;
    unsigned c = i < k ? counts[i] : 0u;
    unsigned incl = c;
    for (int off = 1; off < 32; off <<= 1) {
      unsigned o = __shfl_up_sync(0xffffffffu, incl, off);
      if (lane >= (unsigned)off) incl += o;
    }
    if (lane == 31) warpSums[warp] = incl;
    __syncthreads();
    if (warp == 0) {
      unsigned s = warpSums[lane];
      unsigned si = s;
      for (int off = 1; off < 32; off <<= 1) {
        unsigned o = __shfl_up_sync(0xffffffffu, si, off);
        if (lane >= (unsigned)off) si += o;
      }
      warpSums[lane] = si - s;
      if (lane == 31) total = si;
    }
    __syncthreads();
    if (i < k) start[i] = carry + warpSums[warp] + incl - c;
    carry += total;
    __syncthreads();
  }
  if (threadIdx.x == 0) start[k] = carry;
}

__global__ void fillRows(const COOElement* __restrict__ X, size_t nnzX, const unsigned* __restrict__ start,
                         unsigned* __restrict__ cursor, double2* __restrict__ bucket) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < nnzX; i += (size_t)gridDim.x * blockDim.x) {
    COOElement e = X[i];
    unsigned slot = start[e.row] + atomicAdd(&cursor[e.row], 1u);
    bucket[slot] = make_double2((double)e.column, e.value);  // column fits a double exactly
  }
}

__global__ void multiply(const COOElement* __restrict__ A, size_t nnzA, const unsigned* __restrict__ start,
                         const double2* __restrict__ bucket, double* __restrict__ Y, size_t N) {
  size_t warpId = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) >> 5;
  size_t warps = ((size_t)gridDim.x * blockDim.x) >> 5;
  unsigned lane = threadIdx.x & 31;
  for (size_t t = warpId; t < nnzA; t += warps) {
    COOElement a = A[t];
    unsigned lo = start[a.column], hi = start[a.column + 1];
    double* yRow = Y + a.row * N;
    for (unsigned p = lo + lane; p < hi; p += 32) {
      double2 b = bucket[p];
      atomicAdd(&yRow[(size_t)b.x], a.value * b.y);
    }
  }
}

static unsigned gridFor(size_t work, unsigned block) {
  size_t g = (work + block - 1) / block;
  if (g < 1) g = 1;
  return (unsigned)(g < 65535 ? g : 65535);
}

void spmm(std::vector<COOElement> const& A, std::vector<COOElement> const& X, std::vector<double> &Y, size_t M, size_t K, size_t N) {
  size_t nnzA = A.size(), nnzX = X.size(), ySize = M * N;
  if (ySize == 0) return;
  COOElement *dA = nullptr, *dX = nullptr;
  double* dY = nullptr;
  double2* dBucket = nullptr;
  unsigned *dCounts = nullptr, *dStart = nullptr, *dCursor = nullptr;
  cudaMalloc(&dA, (nnzA ? nnzA : 1) * sizeof(COOElement));
  cudaMalloc(&dX, (nnzX ? nnzX : 1) * sizeof(COOElement));
  cudaMalloc(&dY, ySize * sizeof(double));
  cudaMalloc(&dBucket, (nnzX ? nnzX : 1) * sizeof(double2));
  cudaMalloc(&dCounts, K * sizeof(unsigned));
  cudaMalloc(&dCursor, K * sizeof(unsigned));
  cudaMalloc(&dStart, (K + 1) * sizeof(unsigned));
  if (nnzA) cudaMemcpy(dA, A.data(), nnzA * sizeof(COOElement), cudaMemcpyHostToDevice);
  if (nnzX) cudaMemcpy(dX, X.data(), nnzX * sizeof(COOElement), cudaMemcpyHostToDevice);
  cudaMemset(dY, 0, ySize * sizeof(double));
  cudaMemset(dCounts, 0, K * sizeof(unsigned));
  cudaMemset(dCursor, 0, K * sizeof(unsigned));
  if (nnzX) countRows<<<gridFor(nnzX, 256), 256>>>(dX, nnzX, dCounts);
  scanCounts<<<1, kScanBlock>>>(dCounts, dStart, K);
  if (nnzX) fillRows<<<gridFor(nnzX, 256), 256>>>(dX, nnzX, dStart, dCursor, dBucket);
  if (nnzA && nnzX) multiply<<<gridFor(nnzA * 32, 256), 256>>>(dA, nnzA, dStart, dBucket, dY, N);
  cudaMemcpy(Y.data(), dY, ySize * sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(dA);
  cudaFree(dX);
  cudaFree(dY);
  cudaFree(dBucket);
  cudaFree(dCounts);
  cudaFree(dCursor);
  cudaFree(dStart);
}
