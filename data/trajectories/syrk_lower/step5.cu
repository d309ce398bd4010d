#include <cuda_runtime.h>
#include <cstddef>

#define BT 64   // output tile edge per block
#define KT 16   // k slice staged per iteration
#define RT 4    // outputs per thread in each direction (4 x 4 = 16 registers)

// 64x64 output tile per 16x16-thread block; each thread owns a 4x4 sub-grid of
// outputs (rows ty + 16a, columns tx + 16b) held in registers, so every value
// read from shared memory feeds four multiply-adds instead of one.
__global__ void syrk_lower_regtile(int n, int k, const float* __restrict__ A, float* __restrict__ C) {
  __shared__ float As[BT][KT + 1];
  __shared__ float Bs[BT][KT + 1];
  int tx = threadIdx.x, ty = threadIdx.y;
  int tid = ty * 16 + tx;
  int row0 = blockIdx.y * BT;
  int col0 = blockIdx.x * BT;

  if (blockIdx.x > blockIdx.y) {  // tile entirely above the diagonal
#pragma unroll
    for (int a = 0; a < RT; ++a) {
      int i = row0 + ty + 16 * a;
#pragma unroll
      for (int b = 0; b < RT; ++b) {
        int j = col0 + tx + 16 * b;
        if (i < n && j < n) C[(size_t)i * n + j] = 0.0f;
      }
    }
    return;
  }

  float acc[RT][RT];
#pragma unroll
  for (int a = 0; a < RT; ++a)
#pragma unroll
    for (int b = 0; b < RT; ++b) acc[a][b] = 0.0f;

  for (int t = 0; t < k; t += KT) {
    // 256 threads load 64 rows x 16 columns of each operand, 4 elements each;
    // 16 consecutive threads read 16 consecutive floats of one row.
#pragma unroll
    for (int l = 0; l < 4; ++l) {
      int idx = tid + 256 * l;
      int r = idx >> 4;
      int c = idx & 15;
      int p = t + c;
      int ar = row0 + r;
      int br = col0 + r;
      As[r][c] = (ar < n && p < k) ? A[(size_t)ar * k + p] : 0.0f;
      Bs[r][c] = (br < n && p < k) ? A[(size_t)br * k + p] : 0.0f;
    }
    __syncthreads();
#pragma unroll
    for (int q = 0; q < KT; ++q) {
      float av[RT], bv[RT];
#pragma unroll
      for (int a = 0; a < RT; ++a) av[a] = As[ty + 16 * a][q];
#pragma unroll
      for (int b = 0; b < RT; ++b) bv[b] = Bs[tx + 16 * b][q];
#pragma unroll
      for (int a = 0; a < RT; ++a)
#pragma unroll
        for (int b = 0; b < RT; ++b) acc[a][b] += av[a] * bv[b];
    }
    __syncthreads();
  }

#pragma unroll
  for (int a = 0; a < RT; ++a) {
    int i = row0 + ty + 16 * a;
#pragma unroll
    for (int b = 0; b < RT; ++b) {
      int j = col0 + tx + 16 * b;
      if (i < n && j < n) C[(size_t)i * n + j] = (j <= i) ? acc[a][b] : 0.0f;
    }
  }
}

void syrk_lower_aat(int n, int k, const float* A, float* C) {
  if (n <= 0) return;
  size_t a_elems = (size_t)n * (size_t)(k > 0 ? k : 1);
  size_t c_bytes = (size_t)n * (size_t)n * sizeof(float);
  float *d_A = nullptr, *d_C = nullptr;
  cudaMalloc(&d_A, a_elems * sizeof(float));
  cudaMalloc(&d_C, c_bytes);
  if (k > 0) cudaMemcpy(d_A, A, (size_t)n * k * sizeof(float), cudaMemcpyHostToDevice);
  dim3 block(16, 16);
  dim3 grid((unsigned)((n + BT - 1) / BT), (unsigned)((n + BT - 1) / BT));
  syrk_lower_regtile<<<grid, block>>>(n, k, d_A, d_C);
  cudaMemcpy(C, d_C, c_bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_A);
  cudaFree(d_C);
}
