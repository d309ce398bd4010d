#include <cuda_runtime.h>
#include <cmath>

__device__ __forceinline__ float srgb_linear(float v) {
  return v <= 0.04045f ? v / 12.92f : powf((v + 0.055f) / 1.055f, 2.4f);
}

__device__ __forceinline__ void pixel_xyz(float r, float g, float b, float& x, float& y,
                                          float& z) {
  float lr = srgb_linear(r), lg = srgb_linear(g), lb = srgb_linear(b);
  x = 0.4124564f * lr + 0.3575761f * lg + 0.1804375f * lb;
  y = 0.2126729f * lr + 0.7151522f * lg + 0.0721750f * lb;
  z = 0.0193339f * lr + 0.1191920f * lg + 0.9503041f * lb;
}

// All four launches fused: one thread per pixel linearises its three
// components in registers and applies the matrix, so the 3n-float temporary
// and its write + read round trip through DRAM disappear.
__global__ void srgb_xyz_fused(int n, const float* r, const float* g, const float* b,
                               float* X, float* Y, float* Z) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float x, y, z;
    pixel_xyz(r[i], g[i], b[i], x, y, z);
    X[i] = x;
    Y[i] = y;
    Z[i] = z;
  }
}

void srgbToXyz(int n, const float* r, const float* g, const float* b, float* X, float* Y,
               float* Z) {
  if (n <= 0) return;
  size_t bytes = static_cast<size_t>(n) * sizeof(float);
  float *dr = nullptr, *dg = nullptr, *db = nullptr;
  float *dX = nullptr, *dY = nullptr, *dZ = nullptr;
  cudaMalloc(&dr, bytes);
  cudaMalloc(&dg, bytes);
  cudaMalloc(&db, bytes);
  cudaMalloc(&dX, bytes);
  cudaMalloc(&dY, bytes);
  cudaMalloc(&dZ, bytes);
  cudaMemcpy(dr, r, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dg, g, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice);
  int block = 256;
  int grid = (n + block - 1) / block;
  srgb_xyz_fused<<<grid, block>>>(n, dr, dg, db, dX, dY, dZ);
  cudaMemcpy(X, dX, bytes, cudaMemcpyDeviceToHost);
  cudaMemcpy(Y, dY, bytes, cudaMemcpyDeviceToHost);
  cudaMemcpy(Z, dZ, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dr);
  cudaFree(dg);
  cudaFree(db);
  cudaFree(dX);
  cudaFree(dY);
  cudaFree(dZ);
}
