#include <cuda_runtime.h>

#define THREADS 256
#define PER 4                     // positions per thread
#define CHUNK (THREADS * PER)     // 1024 positions per block
#define M 16
#define SPAN (CHUNK + M)          // 1040 staged samples (one spare keeps it a multiple of 4)

__constant__ float c_tmpl[M];

// Shared-memory bandwidth now limits the kernel: 16 shared loads per score.
// Four neighbouring positions need only 19 distinct samples, so a thread that
// scores four positions loads its window into registers once (under 5 loads
// per score) and keeps four independent sums.
__global__ void ssd_regs(int n, int positions, const float* __restrict__ x, float* __restrict__ score) {
  __shared__ float win[SPAN];
  int first = blockIdx.x * CHUNK;
  for (int t = threadIdx.x; t < SPAN; t += THREADS) {
    int j = first + t;
    win[t] = j < n ? x[j] : 0.0f;
  }
  __syncthreads();
  float r[PER + M - 1];
#pragma unroll
  for (int j = 0; j < PER + M - 1; ++j) r[j] = win[PER * threadIdx.x + j];
  float s[PER];
#pragma unroll
  for (int p = 0; p < PER; ++p) {
    s[p] = 0.0f;
#pragma unroll
    for (int k = 0; k < M; ++k) {
      float d = r[p + k] - c_tmpl[k];
      s[p] += d * d;
    }
  }
  int i = first + PER * threadIdx.x;
#pragma unroll
  for (int p = 0; p < PER; ++p)
    if (i + p < positions) score[i + p] = s[p];
}

void template_ssd16(int n, const float* x, const float* tmpl, float* score) {
  int positions = n - 15;
  if (positions <= 0) return;
  float *d_x = nullptr, *d_s = nullptr;
  cudaMalloc(&d_x, (size_t)n * sizeof(float));
  cudaMalloc(&d_s, (size_t)positions * sizeof(float));
  cudaMemcpy(d_x, x, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpyToSymbol(c_tmpl, tmpl, M * sizeof(float));
  ssd_regs<<<(positions + CHUNK - 1) / CHUNK, THREADS>>>(n, positions, d_x, d_s);
  cudaMemcpy(score, d_s, (size_t)positions * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_x);
  cudaFree(d_s);
}
