#include <cuda_runtime.h>

constexpr int kBlock = 256;

// One block per row. The row is processed in chunks of 256 columns: each chunk
// is scanned with a Hillis-Steele scan in shared memory and offset by the
// running total (carry) of the previous chunks.
__global__ void row_scan_kernel(int cols, const int* m, int* out) {
  __shared__ int s[kBlock];
  int tid = threadIdx.x;
  const int* src = m + static_cast<size_t>(blockIdx.x) * cols;
  int* dst = out + static_cast<size_t>(blockIdx.x) * cols;
  int carry = 0;
  for (int base = 0; base < cols; base += kBlock) {
    int c = base + tid;
    s[tid] = c < cols ? src[c] : 0;
    __syncthreads();
    for (int off = 1; off < kBlock; off <<= 1) {
      int t = tid >= off ? s[tid - off] : 0;
      __syncthreads();
      s[tid] += t;
      __syncthreads();
    }
    if (c < cols) dst[c] = carry + s[tid];
    carry += s[kBlock - 1];
    __syncthreads();  // everyone has read s before the next chunk overwrites it
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
