#include <cuda_runtime.h>

constexpr int kBlock = 128;

// One thread per row walks its row serially, exactly like the reference.
__global__ void row_serial_kernel(int rows, int cols, const int* m, int* out) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const int* src = m + static_cast<size_t>(r) * cols;
  int* dst = out + static_cast<size_t>(r) * cols;
  int acc = 0;
  for (int c = 0; c < cols; ++c) {
    acc += src[c];
    dst[c] = acc;
  }
}

void rowCumulativeSum(int rows, int cols, const int* m, int* out) {
  if (rows <= 0 || cols <= 0) return;
  size_t bytes = static_cast<size_t>(rows) * cols * sizeof(int);
  int *dm = nullptr, *dout = nullptr;
  cudaMalloc(&dm, bytes);
  cudaMalloc(&dout, bytes);
  cudaMemcpy(dm, m, bytes, cudaMemcpyHostToDevice);
  row_serial_kernel<<<(rows + kBlock - 1) / kBlock, kBlock>>>(rows, cols, dm, dout);
  cudaMemcpy(out, dout, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dm);
  cudaFree(dout);
}
