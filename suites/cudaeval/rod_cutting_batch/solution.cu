#include <cuda_runtime.h>
#include <cstddef>

// Step 2 (data_layout_transformation), part 1: prices (nrods x len, row per
// rod) are transposed on the device into pt (len x nrods), so that piece
// length k of consecutive rods is contiguous. 32x32 tiles through shared
// memory keep both the read and the write coalesced.
__global__ void transpose_prices_kernel(int nrods, int len, const int* __restrict__ prices, int* __restrict__ pt) {
  __shared__ int tile[32][33];
  int k0 = blockIdx.x * 32;
  for (int r0 = blockIdx.y * 32; r0 < nrods; r0 += gridDim.y * 32) {
    for (int dy = threadIdx.y; dy < 32; dy += blockDim.y) {
      int r = r0 + dy, k = k0 + threadIdx.x;
      if (r < nrods && k < len) tile[dy][threadIdx.x] = prices[(size_t)r * len + k];
    }
    __syncthreads();
    for (int dy = threadIdx.y; dy < 32; dy += blockDim.y) {
      int k = k0 + dy, r = r0 + threadIdx.x;
      if (r < nrods && k < len) pt[(size_t)k * nrods + r] = tile[threadIdx.x][dy];
    }
    __syncthreads();
  }
}

// Step 1 (thread_mapping): one thread per rod runs the serial recurrence.
// Step 2 (data_layout_transformation), part 2: the dp array of rod r is
// stored interleaved (dp[j * nrods + r]) in a scratch buffer, like the
// transposed prices, so every load and store of a warp is one contiguous
// 128-byte access.
__global__ void rod_kernel(int nrods, int len, const int* __restrict__ pt, int* __restrict__ dp, int* __restrict__ best) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= nrods) return;
  size_t stride = (size_t)nrods;
  for (int j = 1; j <= len; ++j) {
    int m = pt[(size_t)(j - 1) * stride + r];
    for (int k = 1; k < j; ++k) {
      int v = pt[(size_t)(k - 1) * stride + r] + dp[(size_t)(j - k) * stride + r];
      if (v > m) m = v;
    }
    dp[(size_t)j * stride + r] = m;
  }
  best[r] = len > 0 ? dp[(size_t)len * stride + r] : 0;
}

void rodCuttingBatch(int nrods, int len, const int* prices, int* best) {
  if (nrods <= 0) return;
  if (len < 0) len = 0;
  size_t cells = (size_t)nrods * len;
  int *dprices = nullptr, *dpt = nullptr, *ddp = nullptr, *dbest = nullptr;
  cudaMalloc(&dprices, (cells > 0 ? cells : 1) * sizeof(int));
  cudaMalloc(&dpt, (cells > 0 ? cells : 1) * sizeof(int));
  cudaMalloc(&ddp, (size_t)nrods * (len + 1) * sizeof(int));
  cudaMalloc(&dbest, (size_t)nrods * sizeof(int));
  if (cells > 0) {
    cudaMemcpy(dprices, prices, cells * sizeof(int), cudaMemcpyHostToDevice);
    dim3 tb(32, 8);
    int ty = (nrods + 31) / 32;
    dim3 tg((len + 31) / 32, ty < 65535 ? ty : 65535);
    transpose_prices_kernel<<<tg, tb>>>(nrods, len, dprices, dpt);
  }
  const int block = 128;
  rod_kernel<<<(nrods + block - 1) / block, block>>>(nrods, len, dpt, ddp, dbest);
  cudaMemcpy(best, dbest, (size_t)nrods * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dprices);
  cudaFree(dpt);
  cudaFree(ddp);
  cudaFree(dbest);
}
