#include <cuda_runtime.h>
#include <cstddef>

#define ROWS_PER_THREAD 4

// Thread coarsening: each thread now updates the same float4 column group in
// four consecutive rows. Its y values are loaded once and stay in registers,
// and the four row updates are independent, so their memory traffic overlaps.
__global__ void rank1_vec4_rows(int m, int n4, float alpha, const float* __restrict__ x,
                                const float4* __restrict__ y4, float4* __restrict__ A4) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int i0 = (blockIdx.y * blockDim.y + threadIdx.y) * ROWS_PER_THREAD;
  if (c >= n4 || i0 >= m) return;
  float4 yv = y4[c];
#pragma unroll
  for (int r = 0; r < ROWS_PER_THREAD; ++r) {
    int i = i0 + r;
    if (i < m) {
      float ax = alpha * x[i];
      size_t k = (size_t)i * n4 + c;
      float4 a = A4[k];
      a.x += ax * yv.x;
      a.y += ax * yv.y;
      a.z += ax * yv.z;
      a.w += ax * yv.w;
      A4[k] = a;
    }
  }
}

__global__ void rank1_rows(int m, int n, float alpha, const float* __restrict__ x, const float* __restrict__ y,
                           float* __restrict__ A) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i0 = (blockIdx.y * blockDim.y + threadIdx.y) * ROWS_PER_THREAD;
  if (j >= n || i0 >= m) return;
  float yj = y[j];
#pragma unroll
  for (int r = 0; r < ROWS_PER_THREAD; ++r) {
    int i = i0 + r;
    if (i < m) {
      float ax = alpha * x[i];
      A[(size_t)i * n + j] += ax * yj;
    }
  }
}

void rank1_update_f32(int m, int n, float alpha, const float* x, const float* y, float* A) {
  if (m <= 0 || n <= 0) return;
  size_t a_bytes = (size_t)m * (size_t)n * sizeof(float);
  float *d_x = nullptr, *d_y = nullptr, *d_A = nullptr;
  cudaMalloc(&d_x, (size_t)m * sizeof(float));
  cudaMalloc(&d_y, (size_t)n * sizeof(float));
  cudaMalloc(&d_A, a_bytes);
  cudaMemcpy(d_x, x, (size_t)m * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_y, y, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_A, A, a_bytes, cudaMemcpyHostToDevice);
  dim3 block(32, 8);
  int rows_per_block = 8 * ROWS_PER_THREAD;
  unsigned gy = (unsigned)((m + rows_per_block - 1) / rows_per_block);
  if (n % 4 == 0) {
    int n4 = n / 4;
    dim3 grid((unsigned)((n4 + 31) / 32), gy);
    rank1_vec4_rows<<<grid, block>>>(m, n4, alpha, d_x, reinterpret_cast<const float4*>(d_y),
                                     reinterpret_cast<float4*>(d_A));
  } else {
    dim3 grid((unsigned)((n + 31) / 32), gy);
    rank1_rows<<<grid, block>>>(m, n, alpha, d_x, d_y, d_A);
  }
  cudaMemcpy(A, d_A, a_bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_x);
  cudaFree(d_y);
  cudaFree(d_A);
}
