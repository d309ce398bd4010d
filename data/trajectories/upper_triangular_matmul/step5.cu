#include <cuda_runtime.h>
#include <cstddef>

#define BT 64
#define KT 16
#define RT 4

// Register-tiled kernel with double buffering: while the block multiplies the
// k slice in shared buffer `cur`, each thread already has the next slice's
// global loads in flight (held in registers) and stores them into the other
// buffer afterwards, so one barrier per slice suffices and load latency
// overlaps the FMAs.
__global__ void triu_mm_dbuf(int n, const float* __restrict__ U, const float* __restrict__ V,
                             float* __restrict__ W) {
  __shared__ float As[2][BT][KT + 1];
  __shared__ float Bs[2][KT][BT];
  int tx = threadIdx.x, ty = threadIdx.y;
  int tid = ty * 16 + tx;
  int row0 = blockIdx.y * BT;
  int col0 = blockIdx.x * BT;

  if (blockIdx.x < blockIdx.y) {
#pragma unroll
    for (int a = 0; a < RT; ++a) {
      int i = row0 + ty + 16 * a;
#pragma unroll
      for (int b = 0; b < RT; ++b) {
        int j = col0 + tx + 16 * b;
        if (i < n && j < n) W[(size_t)i * n + j] = 0.0f;
      }
    }
    return;
  }

  float acc[RT][RT];
#pragma unroll
  for (int a = 0; a < RT; ++a)
#pragma unroll
    for (int b = 0; b < RT; ++b) acc[a][b] = 0.0f;

  float ra[4], rb[4];  // staging registers for one k slice
  int t_end = min(n, col0 + BT);

  // Prologue: slice t = row0 goes straight into buffer 0.
  {
    int t = row0;
#pragma unroll
    for (int l = 0; l < 4; ++l) {
      int idx = tid + 256 * l;
      int ar = idx >> 4, ac = idx & 15;
      int gi = row0 + ar, gp = t + ac;
      As[0][ar][ac] = (gi < n && gp < n && gp >= gi) ? U[(size_t)gi * n + gp] : 0.0f;
      int br = idx >> 6, bc = idx & 63;
      int gq = t + br, gj = col0 + bc;
      Bs[0][br][bc] = (gq < n && gj < n && gq <= gj) ? V[(size_t)gq * n + gj] : 0.0f;
    }
  }
  __syncthreads();

  int cur = 0;
  for (int t = row0; t < t_end; t += KT) {
    int tn = t + KT;
    bool has_next = tn < t_end;  // uniform across the block
    if (has_next) {
#pragma unroll
      for (int l = 0; l < 4; ++l) {
        int idx = tid + 256 * l;
        int ar = idx >> 4, ac = idx & 15;
        int gi = row0 + ar, gp = tn + ac;
        ra[l] = (gi < n && gp < n && gp >= gi) ? U[(size_t)gi * n + gp] : 0.0f;
        int br = idx >> 6, bc = idx & 63;
        int gq = tn + br, gj = col0 + bc;
        rb[l] = (gq < n && gj < n && gq <= gj) ? V[(size_t)gq * n + gj] : 0.0f;
      }
    }
#pragma unroll
    for (int q = 0; q < KT; ++q) {
      float av[RT], bv[RT];
#pragma unroll
      for (int a = 0; a < RT; ++a) av[a] = As[cur][ty + 16 * a][q];
#pragma unroll
      for (int b = 0; b < RT; ++b) bv[b] = Bs[cur][q][tx + 16 * b];
#pragma unroll
      for (int a = 0; a < RT; ++a)
#pragma unroll
        for (int b = 0; b < RT; ++b) acc[a][b] += av[a] * bv[b];
    }
    if (has_next) {
      int nxt = cur ^ 1;
#pragma unroll
      for (int l = 0; l < 4; ++l) {
        int idx = tid + 256 * l;
        As[nxt][idx >> 4][idx & 15] = ra[l];
        Bs[nxt][idx >> 6][idx & 63] = rb[l];
      }
    }
    // One barrier: buffer `nxt` is complete for everyone, and nobody reads
    // `cur` any more before it is overwritten two slices later.
    __syncthreads();
    cur ^= 1;
  }

#pragma unroll
  for (int a = 0; a < RT; ++a) {
    int i = row0 + ty + 16 * a;
#pragma unroll
    for (int b = 0; b < RT; ++b) {
      int j = col0 + tx + 16 * b;
      if (i < n && j < n) W[(size_t)i * n + j] = (j >= i) ? acc[a][b] : 0.0f;
    }
  }
}

void triu_matmul(int n, const float* U, const float* V, float* W) {
  if (n <= 0) return;
  size_t bytes = (size_t)n * (size_t)n * sizeof(float);
  float *d_U = nullptr, *d_V = nullptr, *d_W = nullptr;
  cudaMalloc(&d_U, bytes);
  cudaMalloc(&d_V, bytes);
  cudaMalloc(&d_W, bytes);
  cudaMemcpy(d_U, U, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_V, V, bytes, cudaMemcpyHostToDevice);
  dim3 block(16, 16);
  dim3 grid((unsigned)((n + BT - 1) / BT), (unsigned)((n + BT - 1) / BT));
  triu_mm_dbuf<<<grid, block>>>(n, d_U, d_V, d_W);
  cudaMemcpy(W, d_W, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_U);
  cudaFree(d_V);
  cudaFree(d_W);
}
