#include <cuda_runtime.h>

#define READINGS_PER_THREAD 4

__device__ __forceinline__ float poly_horner(const float* __restrict__ c, float x, int degree) {
  float acc = __ldg(&c[degree]);
  for (int k = degree - 1; k >= 0; --k) acc = acc * x + __ldg(&c[k]);
  return acc;
}

// Thread coarsening: thread t calibrates the four consecutive readings
// 4t..4t+3 (each bounds-checked) and keeps the results in registers until
// all four are done, giving four independent gather + Horner chains.
__global__ void calib_kernel_x4(int n, const int* __restrict__ sensor,
                                const float* __restrict__ raw, const float* __restrict__ coef,
                                int degree, float* __restrict__ out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int base = t * READINGS_PER_THREAD;
  float res[READINGS_PER_THREAD];
#pragma unroll
  for (int k = 0; k < READINGS_PER_THREAD; ++k) {
    int p = base + k;
    if (p < n) res[k] = poly_horner(coef + __ldg(&sensor[p]) * 8, __ldg(&raw[p]), degree);
  }
#pragma unroll
  for (int k = 0; k < READINGS_PER_THREAD; ++k) {
    int p = base + k;
    if (p < n) out[p] = res[k];
  }
}

void calibrateReadings(int n, const int* sensor, const float* raw, const float* coef,
                       int degree, float* out) {
  if (n <= 0) return;
  size_t bytes = static_cast<size_t>(n) * sizeof(float);
  size_t ibytes = static_cast<size_t>(n) * sizeof(int);
  int* ds = nullptr;
  float *dr = nullptr, *dc = nullptr, *dout = nullptr;
  cudaMalloc(&ds, ibytes);
  cudaMalloc(&dr, bytes);
  cudaMalloc(&dc, 256 * sizeof(float));
  cudaMalloc(&dout, bytes);
  cudaMemcpy(ds, sensor, ibytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dr, raw, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dc, coef, 256 * sizeof(float), cudaMemcpyHostToDevice);
  int block = 256;
  int threads = (n + READINGS_PER_THREAD - 1) / READINGS_PER_THREAD;
  int grid = (threads + block - 1) / block;
  calib_kernel_x4<<<grid, block>>>(n, ds, dr, dc, degree, dout);
  cudaMemcpy(out, dout, bytes, cudaMemcpyDeviceToHost);
  cudaFree(ds);
  cudaFree(dr);
  cudaFree(dc);
  cudaFree(dout);
}
