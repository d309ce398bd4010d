#include <cuda_runtime.h>

constexpr int kBlock = 256;
constexpr int kItems = 4;
constexpr int kChunk = kBlock * kItems;

// kVec: cols is a multiple of 4, so every row starts 16-byte aligned and every
// thread's 4-column group is either wholly inside the row or wholly past it;
// the group is then moved with one int4 load and one int4 store.
template <bool kVec>
__global__ void row_scan_kernel(int cols, const int* m, int* out) {
  __shared__ int s[kBlock];
  int tid = threadIdx.x;
  const int* src = m + static_cast<size_t>(blockIdx.x) * cols;
  int* dst = out + static_cast<size_t>(blockIdx.x) * cols;
  int carry = 0;
  for (int base = 0; base < cols; base += kChunk) {
    int c0 = base + tid * kItems;
    int v[kItems];
    if (kVec) {
      if (c0 < cols) {
        int4 q = *reinterpret_cast<const int4*>(src + c0);
        v[0] = q.x; v[1] = q.y; v[2] = q.z; v[3] = q.w;
      } else {
        v[0] = v[1] = v[2] = v[3] = 0;
      }
    } else {
#pragma unroll
      for (int k = 0; k < kItems; ++k) v[k] = (c0 + k < cols) ? src[c0 + k] : 0;
    }
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
    int offset = carry + s[tid] - mine;
    if (kVec) {
      if (c0 < cols)
        *reinterpret_cast<int4*>(dst + c0) = make_int4(offset + v[0], offset + v[1], offset + v[2], offset + v[3]);
    } else {
#pragma unroll
      for (int k = 0; k < kItems; ++k)
        if (c0 + k < cols) dst[c0 + k] = offset + v[k];
    }
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
  if ((cols & 3) == 0)
    row_scan_kernel<true><<<rows, kBlock>>>(cols, dm, dout);
  else
    row_scan_kernel<false><<<rows, kBlock>>>(cols, dm, dout);
  cudaMemcpy(out, dout, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dm);
  cudaFree(dout);
}
