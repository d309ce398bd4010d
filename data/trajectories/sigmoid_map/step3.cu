#include <cuda_runtime.h>
#include <cmath>

__global__ void sigmoid_kernel(int n, const float* __restrict__ x, float* __restrict__ y) {
  int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    y[i] = __fdividef(1.0f, 1.0f + __expf(-x[i]));
  }
}

void logisticSigmoid(int n, const float* x, float* y) {
  if (n <= 0) return;
  size_t bytes = static_cast<size_t>(n) * sizeof(float);
  float *dx = nullptr, *dy = nullptr;
  cudaMalloc(&dx, bytes);
  cudaMalloc(&dy, bytes);
  cudaMemcpy(dx, x, bytes, cudaMemcpyHostToDevice);

  // Size the grid from the hardware: as many blocks as can be resident at
  // once (occupancy API times the SM count), never more than the work needs.
  int block = 256;
  int device = 0, sms = 0, per_sm = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, sigmoid_kernel, block, 0);
  if (sms < 1) sms = 1;
  if (per_sm < 1) per_sm = 1;
  int needed = (n + block - 1) / block;
  int grid = sms * per_sm;
  if (grid > needed) grid = needed;
  sigmoid_kernel<<<grid, block>>>(n, dx, dy);
  cudaMemcpy(y, dy, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
}
