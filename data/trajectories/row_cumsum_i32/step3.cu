#include <cuda_runtime.h>

constexpr int kBlock = 256;
constexpr int kItems = 4;
constexpr int kChunk = kBlock * kItems;

// One block per row, chunks of 1024 columns. Each thread owns 4 consecutive
// columns, scans them serially in registers and only its total goes through
// the shared-memory Hillis-Steele scan.
__global__ void row_scan_kernel(int cols, const int* m, int* out) {
  __shared__ int s[kBlock];
  int tid = threadIdx.x;
  const int* src = m + static_cast<size_t>(blockIdx.x) * cols;
  int* dst = out + static_cast<size_t>(blockIdx.x) * cols;
  int carry = 0;
  for (int base = 0; base < cols; base += kChunk) {
    int c0 = base + tid * kItems;
    int v[kItems];
#pragma unroll
    for (int k = 0; k < kItems; ++k) v[k] = (c0 + k < cols) ? src[c0 + k] : 0;
#pragma unroll
    for (int k = 1; k < kItems; ++k) v[k] += v[k - 1];
    int mine = v[kItems - 1];
    s[tid] = mine;
    __syncthreads();
    for (int off = 1; off < kBlock; off <<= 1) {
      int t = tid >= off ? s[tid - off] : 0;
      __syncthreads();
      s[tid] += t;
      __syncthreads();
    }
    int offset = carry + s[tid] - mine;  // exclusive prefix of this thread
#pragma unroll
    for (int k = 0; k < kItems; ++k)
      if (c0 + k < cols) dst[c0 + k] = offset + v[k];
    carry += s[kBlock - 1];
    __syncthreads();
  }
}

void rowCumulativeSum(int rows, int cols, const int* m, int* out) {
  if (rows <= 0 || cols <= 0) return;
  size_t bytes = static_cast<size_t>(rows) * cols * sizeof(int);
  int *dm = nullptr, *dout = nullptr;
  cudaMalloc(&dm, bytes);
  cudaMalloc(&dout, bytes);
  cudaMemcpy(dm, m, bytes, cudaMemcpyHostToDevice);
  row_scan_kernel<<<rows, kBlock>>>(cols, dm, dout);
  cudaMemcpy(out, dout, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dm);
  cudaFree(dout);
}
