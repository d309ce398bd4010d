#include <cuda_runtime.h>

struct Sample {
  float x, y, value;
};

#define QPT 4
#define BLOCK 64

// Shared-memory tiling of the samples: the block loads BLOCK sample records
// at a time into three shared arrays (one record per thread, coalesced),
// synchronises, and every thread then reads the tile from shared memory for
// its four queries. All threads stay in the loop (even those whose queries
// are past m) so that every __syncthreads() is reached by the whole block.
__global__ void idw_kernel(int m, int n, const float* __restrict__ qx, const float* __restrict__ qy,
                           const Sample* __restrict__ s, float eps, float* __restrict__ interp) {
  __shared__ float tx[BLOCK], ty[BLOCK], tv[BLOCK];
  int base = blockIdx.x * BLOCK * QPT + threadIdx.x;
  float x[QPT], y[QPT], num[QPT], den[QPT];
#pragma unroll
  for (int k = 0; k < QPT; ++k) {
    int q = base + k * BLOCK;
    x[k] = q < m ? qx[q] : 0.0f;
    y[k] = q < m ? qy[q] : 0.0f;
    num[k] = 0.0f;
    den[k] = 0.0f;
  }
  for (int t0 = 0; t0 < n; t0 += BLOCK) {
    int cnt = n - t0 < BLOCK ? n - t0 : BLOCK;
    if (threadIdx.x < cnt) {
      Sample sj = s[t0 + threadIdx.x];
      tx[threadIdx.x] = sj.x;
      ty[threadIdx.x] = sj.y;
      tv[threadIdx.x] = sj.value;
    }
    __syncthreads();
#pragma unroll 4
    for (int j = 0; j < cnt; ++j) {
      float sx = tx[j], sy = ty[j], sv = tv[j];
#pragma unroll
      for (int k = 0; k < QPT; ++k) {
        float dx = x[k] - sx, dy = y[k] - sy;
        float wj = 1.0f / (dx * dx + dy * dy + eps);
        num[k] += wj * sv;
        den[k] += wj;
      }
    }
    __syncthreads();
  }
#pragma unroll
  for (int k = 0; k < QPT; ++k) {
    int q = base + k * BLOCK;
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
  int per_block = BLOCK * QPT;
  idw_kernel<<<(m + per_block - 1) / per_block, BLOCK>>>(m, n, dqx, dqy, ds, eps, dout);
  cudaMemcpy(interp, dout, mb, cudaMemcpyDeviceToHost);
  cudaFree(dqx);
  cudaFree(dqy);
  cudaFree(dout);
  cudaFree(ds);
}
