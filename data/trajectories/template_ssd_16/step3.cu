#include <cuda_runtime.h>

#define THREADS 256
#define M 16
#define SPAN (THREADS + M - 1)  // samples one block's positions touch

__constant__ float c_tmpl[M];

// Each signal sample is read by sixteen neighbouring threads. The block copies
// the 271 samples its 256 positions need into shared memory once; the scoring
// loop then reads only shared memory.
__global__ void ssd_smem(int n, int positions, const float* __restrict__ x, float* __restrict__ score) {
  __shared__ float win[SPAN];
  int first = blockIdx.x * THREADS;
  for (int t = threadIdx.x; t < SPAN; t += THREADS) {
    int j = first + t;
    win[t] = j < n ? x[j] : 0.0f;  // past the end: never used by a valid position
  }
  __syncthreads();
  int i = first + threadIdx.x;
  if (i >= positions) return;
  float s = 0.0f;
  for (int k = 0; k < M; ++k) {
    float d = win[threadIdx.x + k] - c_tmpl[k];
    s += d * d;
  }
  score[i] = s;
}

void template_ssd16(int n, const float* x, const float* tmpl, float* score) {
  int positions = n - 15;
  if (positions <= 0) return;
  float *d_x = nullptr, *d_s = nullptr;
  cudaMalloc(&d_x, (size_t)n * sizeof(float));
  cudaMalloc(&d_s, (size_t)positions * sizeof(float));
  cudaMemcpy(d_x, x, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpyToSymbol(c_tmpl, tmpl, M * sizeof(float));
  ssd_smem<<<(positions + THREADS - 1) / THREADS, THREADS>>>(n, positions, d_x, d_s);
  cudaMemcpy(score, d_s, (size_t)positions * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_x);
  cudaFree(d_s);
}
