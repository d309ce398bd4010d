#include <cuda_runtime.h>

__device__ __forceinline__ int sign_of(int v) { return (v > 0) - (v < 0); }

// int4 loads and stores: four elements per thread; the first n % 4 threads
// also handle one tail element each.
__global__ void sign_kernel_vec4(int n, const int* __restrict__ x, int* __restrict__ s) {
  int n4 = n >> 2;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    int4 v = reinterpret_cast<const int4*>(x)[i];
    int4 r = make_int4(sign_of(v.x), sign_of(v.y), sign_of(v.z), sign_of(v.w));
    reinterpret_cast<int4*>(s)[i] = r;
  }
  if (i < (n & 3)) {
    int t = (n4 << 2) + i;
    s[t] = sign_of(x[t]);
  }
}

void signOfEach(int n, const int* x, int* s) {
  if (n <= 0) return;
  size_t bytes = static_cast<size_t>(n) * sizeof(int);
  int *dx = nullptr, *ds = nullptr;
  cudaMalloc(&dx, bytes);
  cudaMalloc(&ds, bytes);
  cudaMemcpy(dx, x, bytes, cudaMemcpyHostToDevice);
  int block = 256;
  int work = (n >> 2) > 3 ? (n >> 2) : 3;
  int grid = (work + block - 1) / block;
  sign_kernel_vec4<<<grid, block>>>(n, dx, ds);
  cudaMemcpy(s, ds, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(ds);
}
