#include <cuda_runtime.h>
#include <cstdint>

// Grid-stride loop: a fixed grid sized to the GPU, each thread walks the
// array with stride gridDim*blockDim and keeps its own sum and count in
// registers, so each thread does one shared atomic (per result) in total
// and each block one global atomic.
__global__ void masked_kernel(int n, const float* __restrict__ x, const uint8_t* __restrict__ mask,
                              double* sum, int* count) {
  __shared__ double bsum;
  __shared__ int bcount;
  if (threadIdx.x == 0) {
    bsum = 0.0;
    bcount = 0;
  }
  __syncthreads();
  double s = 0.0;
  int c = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    if (mask[i]) {
      s += (double)x[i];
      ++c;
    }
  }
  if (c > 0) {
    atomicAdd(&bsum, s);
    atomicAdd(&bcount, c);
  }
  __syncthreads();
  if (threadIdx.x == 0 && bcount > 0) {
    atomicAdd(sum, bsum);
    atomicAdd(count, bcount);
  }
}

void masked_sum_count(int n, const float* x, const uint8_t* mask, double& sum, int& count) {
  sum = 0.0;
  count = 0;
  if (n <= 0) return;
  float* dx = nullptr;
  uint8_t* dm = nullptr;
  double* dsum = nullptr;
  int* dcount = nullptr;
  cudaMalloc(&dx, (size_t)n * sizeof(float));
  cudaMalloc(&dm, (size_t)n);
  cudaMalloc(&dsum, sizeof(double));
  cudaMalloc(&dcount, sizeof(int));
  cudaMemcpy(dx, x, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dm, mask, (size_t)n, cudaMemcpyHostToDevice);
  cudaMemset(dsum, 0, sizeof(double));
  cudaMemset(dcount, 0, sizeof(int));
  int block = 256;
  int dev = 0, sms = 0;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  if (sms < 1) sms = 1;
  int grid = sms * 8;  // enough resident blocks to fill the GPU
  int needed = (n + block - 1) / block;
  if (grid > needed) grid = needed;
  masked_kernel<<<grid, block>>>(n, dx, dm, dsum, dcount);
  cudaMemcpy(&sum, dsum, sizeof(double), cudaMemcpyDeviceToHost);
  cudaMemcpy(&count, dcount, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dm);
  cudaFree(dsum);
  cudaFree(dcount);
}
