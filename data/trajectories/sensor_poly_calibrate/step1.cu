#include <cuda_runtime.h>

// One thread per reading: gather the sensor's coefficients and run Horner.
__global__ void calib_kernel(int n, const int* sensor, const float* raw, const float* coef,
                             int degree, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const float* c = coef + sensor[i] * 8;
    float x = raw[i];
    float acc = c[degree];
    for (int k = degree - 1; k >= 0; --k) acc = acc * x + c[k];
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
