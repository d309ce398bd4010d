#include <cuda_runtime.h>

// Bounded grid-stride scan that stops early: every 8 float4 loads a thread
// re-reads the flag (volatile, so it sees other blocks' stores) and returns
// once any thread has found a negative; a thread that finds one raises the
// flag and returns immediately. No barriers are used, so early returns are safe.
__global__ void any_negative_kernel(int n, const float* __restrict__ x, int* flag) {
  volatile int* vflag = flag;
  int n4 = n >> 2;
  int gtid = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = gridDim.x * blockDim.x;
  if (gtid < (n & 3) && x[(n4 << 2) + gtid] < 0.0f) {
    *vflag = 1;
    return;
  }
  const float4* x4 = reinterpret_cast<const float4*>(x);
  int i = gtid;
  while (i < n4) {
    if (*vflag != 0) return;
    bool neg = false;
    for (int k = 0; k < 8 && i < n4; ++k, i += stride) {
      float4 v = x4[i];
      neg |= (v.x < 0.0f) | (v.y < 0.0f) | (v.z < 0.0f) | (v.w < 0.0f);
    }
    if (neg) {
      *vflag = 1;
      return;
    }
  }
}

bool containsNegative(int n, const float* x) {
  if (n <= 0) return false;
  size_t bytes = static_cast<size_t>(n) * sizeof(float);
  float* dx = nullptr;
  int* dflag = nullptr;
  cudaMalloc(&dx, bytes);
  cudaMalloc(&dflag, sizeof(int));
  cudaMemcpy(dx, x, bytes, cudaMemcpyHostToDevice);
  cudaMemset(dflag, 0, sizeof(int));
  int block = 256;
  int work = (n >> 2) > 3 ? (n >> 2) : 3;
  int grid = (work + block - 1) / block;
  if (grid > 1024) grid = 1024;
  any_negative_kernel<<<grid, block>>>(n, dx, dflag);
  int flag = 0;
  cudaMemcpy(&flag, dflag, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dflag);
  return flag != 0;
}
