#include <cuda_runtime.h>

// Inputs are read-only for the whole kernel: const __restrict__ and __ldg route
// them through the read-only data path. The data-dependent gathers from the
// 1 KB coefficient table (up to 8 per reading, 32 distinct rows) are the main
// beneficiaries: they stay resident in the read-only cache.
__global__ void calib_kernel(int n, const int* __restrict__ sensor,
                             const float* __restrict__ raw, const float* __restrict__ coef,
                             int degree, float* __restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const float* c = coef + __ldg(&sensor[i]) * 8;
    float x = __ldg(&raw[i]);
    float acc = __ldg(&c[degree]);
    for (int k = degree - 1; k >= 0; --k) acc = acc * x + __ldg(&c[k]);
    out[i] = acc;
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
  int grid = (n + block - 1) / block;
  calib_kernel<<<grid, block>>>(n, ds, dr, dc, degree, dout);
  cudaMemcpy(out, dout, bytes, cudaMemcpyDeviceToHost);
  cudaFree(ds);
  cudaFree(dr);
  cudaFree(dc);
  cudaFree(dout);
}
