#include <cuda_runtime.h>
#include <cstddef>

#define BT 64  // output tile edge per block
#define KT 16  // k slice
#define RT 4   // outputs per thread along each axis

// 4-byte asynchronous global->shared copy (Ampere+), bypassing registers.
__device__ __forceinline__ void cp_async_f32(float* smem, const float* gmem) {
  unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(s), "l"(gmem) : "memory");
}
__device__ __forceinline__ void cp_async_commit() {
  asm volatile("cp.async.commit_group;\n" ::: "memory");
}
__device__ __forceinline__ void cp_async_wait_all() {
  asm volatile("cp.async.wait_group 0;\n" ::: "memory");
}

// Issue the copies of k slice t into buffer b (out-of-range elements are
// plain zero stores).
__device__ __forceinline__ void load_slice(float (*As)[KT], float (*Bs)[BT], int m, int n, int k,
                                           const float* __restrict__ X,
                                           const float* __restrict__ W, int row0, int col0, int t,
                                           int tid) {
  for (int l = 0; l < 4; ++l) {
    int idx = tid + 256 * l;
    int ar = idx >> 4, ac = idx & 15;
    int gi = row0 + ar, gp = t + ac;
    if (gi < m && gp < k)
      cp_async_f32(&As[ar][ac], X + (size_t)gi * k + gp);
    else
      As[ar][ac] = 0.0f;
    int br = idx >> 6, bc = idx & 63;
    int gq = t + br, gj = col0 + bc;
    if (gq < k && gj < n)
      cp_async_f32(&Bs[br][bc], W + (size_t)gq * n + gj);
    else
      Bs[br][bc] = 0.0f;
  }
  cp_async_commit();
}

// Double buffering with cp.async: right after the barrier that publishes
// slice s, the block starts the asynchronous copy of slice s+1 into the other
// buffer and multiplies slice s while it is in flight. Each iteration begins by
// waiting for this thread's copies of its slice, then one barrier makes the
// slice visible and guarantees the other buffer is no longer being read.
__global__ void linear_relu_async(int m, int n, int k, const float* __restrict__ X,
                                  const float* __restrict__ W, const float* __restrict__ bias,
                                  float* __restrict__ Y) {
  __shared__ float As[2][BT][KT];
  __shared__ float Bs[2][KT][BT];
  int tx = threadIdx.x, ty = threadIdx.y;
  int tid = ty * 16 + tx;
  int row0 = blockIdx.y * BT, col0 = blockIdx.x * BT;
  float acc[RT][RT];
  for (int a = 0; a < RT; ++a)
    for (int b = 0; b < RT; ++b) acc[a][b] = 0.0f;
  if (k > 0) load_slice(As[0], Bs[0], m, n, k, X, W, row0, col0, 0, tid);
  int buf = 0;
  for (int t = 0; t < k; t += KT) {
    cp_async_wait_all();
    __syncthreads();
    if (t + KT < k) load_slice(As[buf ^ 1], Bs[buf ^ 1], m, n, k, X, W, row0, col0, t + KT, tid);
    for (int q = 0; q < KT; ++q) {
      float av[RT], bv[RT];
      for (int a = 0; a < RT; ++a) av[a] = As[buf][ty + 16 * a][q];
      for (int b = 0; b < RT; ++b) bv[b] = Bs[buf][q][tx + 16 * b];
      for (int a = 0; a < RT; ++a)
        for (int b = 0; b < RT; ++b) acc[a][b] += av[a] * bv[b];
    }
    buf ^= 1;
  }
  for (int a = 0; a < RT; ++a) {
    int i = row0 + ty + 16 * a;
    if (i >= m) continue;
    for (int b = 0; b < RT; ++b) {
      int j = col0 + tx + 16 * b;
      if (j < n) {
        float v = acc[a][b] + bias[j];
        Y[(size_t)i * n + j] = v > 0.0f ? v : 0.0f;
      }
    }
  }
}

void linear_relu_forward(int m, int n, int k, const float* X, const float* W, const float* bias,
                         float* Y) {
  if (m <= 0 || n <= 0) return;
  size_t bx = (size_t)m * k * sizeof(float), bw = (size_t)k * n * sizeof(float);
  size_t bb = (size_t)n * sizeof(float), by = (size_t)m * n * sizeof(float);
  float *d_X, *d_W, *d_b, *d_Y;
  cudaMalloc(&d_X, bx > 0 ? bx : sizeof(float));
  cudaMalloc(&d_W, bw > 0 ? bw : sizeof(float));
  cudaMalloc(&d_b, bb);
  cudaMalloc(&d_Y, by);
  cudaMemcpy(d_X, X, bx, cudaMemcpyHostToDevice);
  cudaMemcpy(d_W, W, bw, cudaMemcpyHostToDevice);
  cudaMemcpy(d_b, bias, bb, cudaMemcpyHostToDevice);
  dim3 block(16, 16);
  dim3 grid((n + BT - 1) / BT, (m + BT - 1) / BT);
  linear_relu_async<<<grid, block>>>(m, n, k, d_X, d_W, d_b, d_Y);
  cudaMemcpy(Y, d_Y, by, cudaMemcpyDeviceToHost);
  cudaFree(d_X);
  cudaFree(d_W);
  cudaFree(d_b);
  cudaFree(d_Y);
}
