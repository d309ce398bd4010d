#include <cuda_runtime.h>

struct Sample {
  float x, y, value;
};

// One thread per query point accumulates the weighted sums over all samples.
__global__ void idw_kernel(int m, int n, const float* qx, const float* qy, const Sample* s, float eps,
                           float* interp) {
  int q = blockIdx.x * blockDim.x + threadIdx.x;
  if (q >= m) return;
  float x = qx[q], y = qy[q], num = 0.0f, den = 0.0f;
  for (int j = 0; j < n; ++j) {
    Sample sj = s[j];
    float dx = x - sj.x, dy = y - sj.y;
    float wj = 1.0f / (dx * dx + dy * dy + eps);
    num += wj * sj.value;
    den += wj;
  }
  interp[q] = num / den;
}

void idw_interpolate_2d(int m, int n, const float* qx, const float* qy, const Sample* samples, float eps,
                        float* interp) {
  if (m <= 0) return;
  size_t mb = (size_t)m * sizeof(float);
  float *dqx = nullptr, *dqy = nullptr, *dout = nullptr;
  Sample* ds = nullptr;
  cudaMalloc(&dqx, mb);
  cudaMalloc(&dqy, mb);
  cudaMalloc(&dout, mb);
  cudaMalloc(&ds, (size_t)(n > 0 ? n : 1) * sizeof(Sample));
  cudaMemcpy(dqx, qx, mb, cudaMemcpyHostToDevice);
  cudaMemcpy(dqy, qy, mb, cudaMemcpyHostToDevice);
  if (n > 0) cudaMemcpy(ds, samples, (size_t)n * sizeof(Sample), cudaMemcpyHostToDevice);
  int block = 256;
  idw_kernel<<<(m + block - 1) / block, block>>>(m, n, dqx, dqy, ds, eps, dout);
  cudaMemcpy(interp, dout, mb, cudaMemcpyDeviceToHost);
  cudaFree(dqx);
  cudaFree(dqy);
  cudaFree(dout);
  cudaFree(ds);
}
