#include <cuda_runtime.h>

#define THREADS 256
#define PER 4
#define CHUNK (THREADS * PER)
#define M 16
#define SPAN4 ((CHUNK + M) / 4)   // 260 float4 staged per block

__constant__ float c_tmpl[M];

// 16-byte accesses throughout. A block's first sample is a multiple of 1024,
// so every whole float4 of the signal is aligned: the stage uses float4 loads
// (scalar, guarded, only for the vector that straddles the end). A thread's 19
// samples start at float4 index threadIdx.x, so it reads five float4 from
// shared memory in place of 19 stride-4 scalar reads (which also conflicted
// four ways), and stores its four scores as one float4.
__global__ void ssd_vec4(int n, int positions, const float* __restrict__ x, float* __restrict__ score) {
  __shared__ float4 win[SPAN4];
  int first = blockIdx.x * CHUNK;
  for (int v = threadIdx.x; v < SPAN4; v += THREADS) {
    int j = first + 4 * v;
    float4 q;
    if (j + 3 < n) {
      q = *reinterpret_cast<const float4*>(x + j);
    } else {
      q.x = j < n ? x[j] : 0.0f;
      q.y = j + 1 < n ? x[j + 1] : 0.0f;
      q.z = j + 2 < n ? x[j + 2] : 0.0f;
      q.w = j + 3 < n ? x[j + 3] : 0.0f;
    }
    win[v] = q;
  }
  __syncthreads();
  float r[20];
#pragma unroll
  for (int v = 0; v < 5; ++v) {
    float4 q = win[threadIdx.x + v];
    r[4 * v] = q.x;
    r[4 * v + 1] = q.y;
    r[4 * v + 2] = q.z;
    r[4 * v + 3] = q.w;
  }
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
  if (i + PER - 1 < positions) {
    *reinterpret_cast<float4*>(score + i) = make_float4(s[0], s[1], s[2], s[3]);
  } else {
#pragma unroll
    for (int p = 0; p < PER; ++p)
      if (i + p < positions) score[i + p] = s[p];
  }
}

void template_ssd16(int n, const float* x, const float* tmpl, float* score) {
  int positions = n - 15;
  if (positions <= 0) return;
  float *d_x = nullptr, *d_s = nullptr;
  cudaMalloc(&d_x, (size_t)n * sizeof(float));
  cudaMalloc(&d_s, (size_t)positions * sizeof(float));
  cudaMemcpy(d_x, x, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpyToSymbol(c_tmpl, tmpl, M * sizeof(float));
  ssd_vec4<<<(positions + CHUNK - 1) / CHUNK, THREADS>>>(n, positions, d_x, d_s);
  cudaMemcpy(score, d_s, (size_t)positions * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_x);
  cudaFree(d_s);
}
