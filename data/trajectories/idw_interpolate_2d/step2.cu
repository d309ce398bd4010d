#include <cuda_runtime.h>

struct Sample {
  float x, y, value;
};

#define QPT 4  // queries per thread

// Register tiling: each thread owns QPT = 4 queries, a block-width apart so
// that query loads and result stores stay coalesced; every sample record it
// loads is reused for four queries from registers.
__global__ void idw_kernel(int m, int n, const float* __restrict__ qx, const float* __restrict__ qy,
                           const Sample* __restrict__ s, float eps, float* __restrict__ interp) {
  int base = blockIdx.x * blockDim.x * QPT + threadIdx.x;  // queries base + k*blockDim.x
  float x[QPT], y[QPT], num[QPT], den[QPT];
#pragma unroll
  for (int k = 0; k < QPT; ++k) {
    int q = base + k * blockDim.x;
    x[k] = q < m ? qx[q] : 0.0f;
    y[k] = q < m ? qy[q] : 0.0f;
    num[k] = 0.0f;
    den[k] = 0.0f;
  }
  for (int j = 0; j < n; ++j) {
    Sample sj = s[j];
#pragma unroll
    for (int k = 0; k < QPT; ++k) {
      float dx = x[k] - sj.x, dy = y[k] - sj.y;
      float wj = 1.0f / (dx * dx + dy * dy + eps);
      num[k] += wj * sj.value;
      den[k] += wj;
    }
  }
#pragma unroll
  for (int k = 0; k < QPT; ++k) {
    int q = base + k * blockDim.x;
    if (q < m) interp[q] = num[k] / den[k];
  }
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
  int per_block = block * QPT;
  idw_kernel<<<(m + per_block - 1) / per_block, block>>>(m, n, dqx, dqy, ds, eps, dout);
  cudaMemcpy(interp, dout, mb, cudaMemcpyDeviceToHost);
  cudaFree(dqx);
  cudaFree(dqy);
  cudaFree(dout);
  cudaFree(ds);
}
