#include <cuda_runtime.h>

// Step 1 (thread_mapping): each covariance entry (i, j), j >= i, is owned by
// one thread of a 64 x 64 tile (256 threads, 4 x 4 entries each).
// Step 2 (memory_coalescing): the means kernel gives each thread a column and
// walks the rows, so every warp reads 32 consecutive floats of a row.
// Step 3 (kernel_fusion): centring is fused into the product kernel: values
// are centred as the panels are staged, no centred copy of X is written.
// Step 4 (algorithmic_restructuring): covariance is symmetric: only the
// nt (nt + 1) / 2 tiles on or above the diagonal are launched (a triangular
// decode of blockIdx.x) and each entry is stored at (i, j) and (j, i).
// Step 5 (shared_memory_tiling): 16-row chunks of the two 64-column panels
// are staged in shared memory and reused by all threads of the tile.
// Step 6 (register_tiling): each thread holds a 4 x 4 block of accumulators.
// Step 7 (loop_unrolling): the 16-row chunk loop and 4 x 4 loops are unrolled.
// Step 8 (mixed_precision): products are summed in float within a 16-row
// chunk and the chunk sums in double, giving double-sum accuracy at float
// multiply speed.
constexpr int kT = 64;
constexpr int kK = 16;

__global__ void column_mean_kernel(int n, int p, const float* __restrict__ X,
                                   float* __restrict__ mean) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p) return;
  double s = 0.0;
  for (int r = 0; r < n; ++r) s += __ldg(&X[(long long)r * p + i]);
  mean[i] = (float)(s / n);
}

__global__ void covariance_kernel(int n, int p, int nt, const float* __restrict__ X,
                                  const float* __restrict__ mean, float* __restrict__ cov) {
  __shared__ float si[kK][kT], sj[kK][kT];
  int b = blockIdx.x, ti = 0;
  while (b >= nt - ti) {
    b -= nt - ti;
    ++ti;
  }
  int tj = ti + b;
  int i0 = ti * kT, j0 = tj * kT;
  int tx = threadIdx.x & 15, ty = threadIdx.x >> 4;
  double acc[4][4];
#pragma unroll
  for (int a = 0; a < 4; ++a)
#pragma unroll
    for (int c = 0; c < 4; ++c) acc[a][c] = 0.0;
  for (int s0 = 0; s0 < n; s0 += kK) {
    for (int e = threadIdx.x; e < kK * kT; e += blockDim.x) {
      int s = e / kT, col = e - s * kT;
      int gs = s0 + s, gi = i0 + col, gj = j0 + col;
      bool ok = gs < n;
      si[s][col] = (ok && gi < p) ? __ldg(&X[(long long)gs * p + gi]) - __ldg(&mean[gi]) : 0.0f;
      sj[s][col] = (ok && gj < p) ? __ldg(&X[(long long)gs * p + gj]) - __ldg(&mean[gj]) : 0.0f;
    }
    __syncthreads();
    float part[4][4];
#pragma unroll
    for (int a = 0; a < 4; ++a)
#pragma unroll
      for (int c = 0; c < 4; ++c) part[a][c] = 0.0f;
#pragma unroll
    for (int s = 0; s < kK; ++s) {
      float vi[4], vj[4];
#pragma unroll
      for (int a = 0; a < 4; ++a) {
        vi[a] = si[s][ty * 4 + a];
        vj[a] = sj[s][tx * 4 + a];
      }
#pragma unroll
      for (int a = 0; a < 4; ++a)
#pragma unroll
        for (int c = 0; c < 4; ++c) part[a][c] += vi[a] * vj[c];
    }
#pragma unroll
    for (int a = 0; a < 4; ++a)
#pragma unroll
      for (int c = 0; c < 4; ++c) acc[a][c] += part[a][c];
    __syncthreads();
  }
  double inv = 1.0 / (double)(n - 1);
#pragma unroll
  for (int a = 0; a < 4; ++a) {
    int i = i0 + ty * 4 + a;
#pragma unroll
    for (int c = 0; c < 4; ++c) {
      int j = j0 + tx * 4 + c;
      if (i < p && j < p && j >= i) {
        float v = (float)(acc[a][c] * inv);
        cov[(long long)i * p + j] = v;
        cov[(long long)j * p + i] = v;
      }
    }
  }
}

void covarianceMatrix(int n, int p, const float* X, float* cov) {
  if (p <= 0 || n < 2) return;
  size_t xe = (size_t)n * p;
  float *d_x = nullptr, *d_mean = nullptr, *d_cov = nullptr;
  cudaMalloc(&d_x, xe * sizeof(float));
  cudaMalloc(&d_mean, (size_t)p * sizeof(float));
  cudaMalloc(&d_cov, (size_t)p * p * sizeof(float));
  cudaMemcpy(d_x, X, xe * sizeof(float), cudaMemcpyHostToDevice);
  column_mean_kernel<<<(p + 127) / 128, 128>>>(n, p, d_x, d_mean);
  int nt = (p + kT - 1) / kT;
  long long tiles = (long long)nt * (nt + 1) / 2;
  covariance_kernel<<<(unsigned)tiles, 256>>>(n, p, nt, d_x, d_mean, d_cov);
  cudaMemcpy(cov, d_cov, (size_t)p * p * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_x);
  cudaFree(d_mean);
  cudaFree(d_cov);
}
