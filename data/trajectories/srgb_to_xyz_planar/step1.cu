#include <cuda_runtime.h>
#include <cmath>

// Pass 1 (launched once per channel): undo the sRGB transfer curve.
__global__ void linearize_kernel(int n, const float* src, float* dst) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = src[i];
    dst[i] = v <= 0.04045f ? v / 12.92f : powf((v + 0.055f) / 1.055f, 2.4f);
  }
}

// Pass 2: one thread per pixel applies the linear-RGB -> XYZ matrix.
__global__ void rgb_to_xyz_kernel(int n, const float* lr, const float* lg, const float* lb,
                                  float* X, float* Y, float* Z) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    X[i] = 0.4124564f * lr[i] + 0.3575761f * lg[i] + 0.1804375f * lb[i];
    Y[i] = 0.2126729f * lr[i] + 0.7151522f * lg[i] + 0.0721750f * lb[i];
    Z[i] = 0.0193339f * lr[i] + 0.1191920f * lg[i] + 0.9503041f * lb[i];
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
  float* dlin = nullptr;
  cudaMalloc(&dlin, 3 * bytes);
  int block = 256;
  int grid = (n + block - 1) / block;
  linearize_kernel<<<grid, block>>>(n, dr, dlin);
  linearize_kernel<<<grid, block>>>(n, dg, dlin + n);
  linearize_kernel<<<grid, block>>>(n, db, dlin + 2 * static_cast<size_t>(n));
  rgb_to_xyz_kernel<<<grid, block>>>(n, dlin, dlin + n, dlin + 2 * static_cast<size_t>(n),
                                     dX, dY, dZ);
  cudaFree(dlin);
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
