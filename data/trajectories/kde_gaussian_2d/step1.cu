#include <cuda_runtime.h>

// One thread per query point sums the contributions of all samples.
__global__ void kde_kernel(int m, int n, const float* qx, const float* qy, const float* sx, const float* sy,
                           const float* w, float inv2h2, float* density) {
  int q = blockIdx.x * blockDim.x + threadIdx.x;
  if (q >= m) return;
  float x = qx[q], y = qy[q], acc = 0.0f;
  for (int j = 0; j < n; ++j) {
    float dx = x - sx[j], dy = y - sy[j];
    acc += w[j] * expf(-(dx * dx + dy * dy) * inv2h2);
  }
  density[q] = acc;
}

void kde_gaussian_2d(int m, int n, const float* qx, const float* qy, const float* sx, const float* sy,
                     const float* w, float h, float* density) {
  if (m <= 0) return;
  float inv2h2 = 1.0f / (2.0f * h * h);
  size_t mb = (size_t)m * sizeof(float), nb = (size_t)(n > 0 ? n : 1) * sizeof(float);
  float *dqx = nullptr, *dqy = nullptr, *dsx = nullptr, *dsy = nullptr, *dw = nullptr, *dd = nullptr;
  cudaMalloc(&dqx, mb);
  cudaMalloc(&dqy, mb);
  cudaMalloc(&dsx, nb);
  cudaMalloc(&dsy, nb);
  cudaMalloc(&dw, nb);
  cudaMalloc(&dd, mb);
  cudaMemcpy(dqx, qx, mb, cudaMemcpyHostToDevice);
  cudaMemcpy(dqy, qy, mb, cudaMemcpyHostToDevice);
  if (n > 0) {
    cudaMemcpy(dsx, sx, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dsy, sy, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dw, w, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
  }
  int block = 256;
  kde_kernel<<<(m + block - 1) / block, block>>>(m, n, dqx, dqy, dsx, dsy, dw, inv2h2, dd);
  cudaMemcpy(density, dd, mb, cudaMemcpyDeviceToHost);
  cudaFree(dqx);
  cudaFree(dqy);
  cudaFree(dsx);
  cudaFree(dsy);
  cudaFree(dw);
  cudaFree(dd);
}
