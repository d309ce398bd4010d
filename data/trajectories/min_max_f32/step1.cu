#include <cuda_runtime.h>
#include <climits>
#include <cstring>

// Order-preserving float -> int key: non-negative floats keep their bits,
// negative floats get their magnitude bits flipped, so int comparison of keys
// equals float comparison of values.
__device__ __forceinline__ int encode_key(float f) {
  int i = __float_as_int(f);
  return i >= 0 ? i : (i ^ 0x7fffffff);
}

static float decode_key(int k) {
  unsigned int u = static_cast<unsigned int>(k >= 0 ? k : (k ^ 0x7fffffff));
  float f;
  std::memcpy(&f, &u, sizeof(f));
  return f;
}

// One thread per element, two integer atomics each.
__global__ void minmax_atomic_kernel(int n, const float* x, int* keys) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int k = encode_key(x[i]);
    atomicMin(&keys[0], k);
    atomicMax(&keys[1], k);
  }
}

void findMinMax(int n, const float* x, float& lo, float& hi) {
  if (n <= 0) return;
  size_t bytes = static_cast<size_t>(n) * sizeof(float);
  float* dx = nullptr;
  int* dkeys = nullptr;
  cudaMalloc(&dx, bytes);
  cudaMalloc(&dkeys, 2 * sizeof(int));
  cudaMemcpy(dx, x, bytes, cudaMemcpyHostToDevice);
  int init[2] = {INT_MAX, INT_MIN};
  cudaMemcpy(dkeys, init, sizeof(init), cudaMemcpyHostToDevice);
  int block = 256;
  int grid = (n + block - 1) / block;
  minmax_atomic_kernel<<<grid, block>>>(n, dx, dkeys);
  int keys[2];
  cudaMemcpy(keys, dkeys, sizeof(keys), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dkeys);
  lo = decode_key(keys[0]);
  hi = decode_key(keys[1]);
}
