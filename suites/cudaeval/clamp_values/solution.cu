#include <cuda_runtime.h>
#include <vector>

// Step 1 (thread_mapping): each element is independent; one thread clamps one.
// Step 2 (grid_stride_loop): a fixed, occupancy-sized grid walks the array with
// a stride of the whole grid, so the launch works for any n without huge grids.
__global__ void clamp_values_kernel(int* __restrict__ v, size_t n, int lo, int hi) {
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    v[i] = min(max(v[i], lo), hi);
  }
}

void clampValues(std::vector<int>& values, int lo, int hi) {
  size_t n = values.size();
  if (n == 0) return;
  size_t bytes = n * sizeof(int);
  int* dv = nullptr;
  cudaMalloc(&dv, bytes);
  cudaMemcpy(dv, values.data(), bytes, cudaMemcpyHostToDevice);
  int device = 0, sms = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  if (sms <= 0) sms = 80;
  const int block = 256;
  size_t needed = (n + block - 1) / block;
  size_t cap = (size_t)sms * 8;
  int grid = (int)(needed < cap ? needed : cap);
  clamp_values_kernel<<<grid, block>>>(dv, n, lo, hi);
  cudaMemcpy(values.data(), dv, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dv);
}
