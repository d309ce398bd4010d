#include <cuda_runtime.h>

// One thread per row: copy the row into a private array and insertion-sort it.
__global__ void sort_rows_thread(int rows, const float* in, float* out) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const float* src = in + static_cast<size_t>(r) * 32;
  float v[32];
  for (int k = 0; k < 32; ++k) v[k] = src[k];
  for (int a = 1; a < 32; ++a) {
    float key = v[a];
    int b = a - 1;
    while (b >= 0 && v[b] > key) {
      v[b + 1] = v[b];
      --b;
    }
    v[b + 1] = key;
  }
  float* dst = out + static_cast<size_t>(r) * 32;
  for (int k = 0; k < 32; ++k) dst[k] = v[k];
}

void sortEachRow32(int rows, const float* in, float* out) {
  if (rows <= 0) return;
  size_t bytes = static_cast<size_t>(rows) * 32 * sizeof(float);
  float *din = nullptr, *dout = nullptr;
  cudaMalloc(&din, bytes);
  cudaMalloc(&dout, bytes);
  cudaMemcpy(din, in, bytes, cudaMemcpyHostToDevice);
  int block = 128;
  int grid = (rows + block - 1) / block;
  sort_rows_thread<<<grid, block>>>(rows, din, dout);
  cudaMemcpy(out, dout, bytes, cudaMemcpyDeviceToHost);
  cudaFree(din);
  cudaFree(dout);
}
