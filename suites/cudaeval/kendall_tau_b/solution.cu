#include <cuda_runtime.h>
#include <math.h>

// Step 1 (thread_mapping): pairs (i, j) are counted in parallel: a block owns
// a 512 x 512 tile of the pair matrix, each thread 4 rows i of it.
// Step 2 (algorithmic_restructuring): only the upper triangle of pairs is
// needed, so only tile pairs (ti <= tj) are launched (a triangular decode of
// blockIdx.x); inside a diagonal tile only j > i counts.
// Step 3 (shared_memory_tiling): the tile's 512 j-samples (x and y) are
// staged in shared memory once and read by every thread.
// Step 4 (register_tiling): each thread keeps its 4 i-samples in registers,
// so two shared reads (x_j, y_j) serve four pairs.
// Step 5 (loop_unrolling): the j loop is unrolled by 8 and the 4-row loop
// fully.
// Step 6 (warp_shuffle_reduction): the per-thread counters (S, ties in x,
// ties in y) are summed across the warp with shuffles, then per block
// through shared memory.
// Step 7 (atomic_operations): block totals go to 64-bit global counters with
// atomicAdd; a one-thread kernel forms tau_b from them on the device.
constexpr int kThreads = 128;
constexpr int kR = 4;
constexpr int kTile = kThreads * kR;

__global__ void kendall_pairs_kernel(int n, int nt, const float* __restrict__ x,
                                     const float* __restrict__ y,
                                     unsigned long long* __restrict__ counters) {
  __shared__ float sx[kTile], sy[kTile];
  __shared__ long long part[3][kThreads / 32];
  int b = blockIdx.x, ti = 0;
  while (b >= nt - ti) {
    b -= nt - ti;
    ++ti;
  }
  int tj = ti + b;
  int i0 = ti * kTile, j0 = tj * kTile;
  for (int e = threadIdx.x; e < kTile; e += kThreads) {
    int j = j0 + e;
    sx[e] = j < n ? __ldg(&x[j]) : 0.0f;
    sy[e] = j < n ? __ldg(&y[j]) : 0.0f;
  }
  float xi[kR], yi[kR];
  int gi[kR];
#pragma unroll
  for (int r = 0; r < kR; ++r) {
    gi[r] = i0 + threadIdx.x + r * kThreads;
    xi[r] = gi[r] < n ? __ldg(&x[gi[r]]) : 0.0f;
    yi[r] = gi[r] < n ? __ldg(&y[gi[r]]) : 0.0f;
  }
  __syncthreads();
  int jn = min(kTile, n - j0);
  int s = 0, t1 = 0, t2 = 0;
  if (ti != tj) {
#pragma unroll 8
    for (int jj = 0; jj < jn; ++jj) {
      float xj = sx[jj], yj = sy[jj];
#pragma unroll
      for (int r = 0; r < kR; ++r) {
        if (gi[r] < n) {
          int a = (xi[r] > xj) - (xi[r] < xj);
          int c = (yi[r] > yj) - (yi[r] < yj);
          s += a * c;
          t1 += a == 0;
          t2 += c == 0;
        }
      }
    }
  } else {
#pragma unroll 8
    for (int jj = 0; jj < jn; ++jj) {
      float xj = sx[jj], yj = sy[jj];
#pragma unroll
      for (int r = 0; r < kR; ++r) {
        if (gi[r] < n && j0 + jj > gi[r]) {
          int a = (xi[r] > xj) - (xi[r] < xj);
          int c = (yi[r] > yj) - (yi[r] < yj);
          s += a * c;
          t1 += a == 0;
          t2 += c == 0;
        }
      }
    }
  }
  long long v[3] = {s, t1, t2};
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
#pragma unroll
  for (int q = 0; q < 3; ++q) {
    for (int off = 16; off > 0; off >>= 1) v[q] += __shfl_xor_sync(0xffffffffu, v[q], off);
    if (lane == 0) part[q][warp] = v[q];
  }
  __syncthreads();
  if (threadIdx.x < 3) {
    long long t = 0;
    for (int w = 0; w < kThreads / 32; ++w) t += part[threadIdx.x][w];
    atomicAdd(&counters[threadIdx.x], (unsigned long long)t);  // two's complement sum
  }
}

__global__ void zero_counters_kernel(unsigned long long* c) {
  if (threadIdx.x < 3) c[threadIdx.x] = 0ull;
}

__global__ void tau_kernel(int n, const unsigned long long* __restrict__ c,
                           double* __restrict__ tau) {
  double s = (double)(long long)c[0];
  double n0 = 0.5 * (double)n * (n - 1);
  double den = (n0 - (double)(long long)c[1]) * (n0 - (double)(long long)c[2]);
  *tau = den > 0.0 ? s / sqrt(den) : 0.0;
}

double kendallTauB(int n, const float* x, const float* y) {
  int nn = n > 0 ? n : 0;
  float *d_x = nullptr, *d_y = nullptr;
  unsigned long long* d_c = nullptr;
  double* d_tau = nullptr;
  cudaMalloc(&d_x, (size_t)(nn > 0 ? nn : 1) * sizeof(float));
  cudaMalloc(&d_y, (size_t)(nn > 0 ? nn : 1) * sizeof(float));
  cudaMalloc(&d_c, 3 * sizeof(unsigned long long));
  cudaMalloc(&d_tau, sizeof(double));
  if (nn > 0) {
    cudaMemcpy(d_x, x, (size_t)nn * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_y, y, (size_t)nn * sizeof(float), cudaMemcpyHostToDevice);
  }
  zero_counters_kernel<<<1, 32>>>(d_c);
  if (nn > 1) {
    int nt = (nn + kTile - 1) / kTile;
    long long tiles = (long long)nt * (nt + 1) / 2;
    kendall_pairs_kernel<<<(unsigned)tiles, kThreads>>>(nn, nt, d_x, d_y, d_c);
  }
  tau_kernel<<<1, 1>>>(nn, d_c, d_tau);
  double tau = 0.0;
  cudaMemcpy(&tau, d_tau, sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(d_x);
  cudaFree(d_y);
  cudaFree(d_c);
  cudaFree(d_tau);
  return tau;
}
