#include <cuda_runtime.h>
#include <math.h>

// Step 1 (thread_mapping): one thread per tick t computes its window's mean
// and standard deviation with the reference's two passes.
// Step 2 (shared_memory_tiling): a block of kTicks ticks needs the prices
// i0 - w + 1 .. i0 + kTicks - 1; they are loaded once into shared memory and
// every window is read from there. Windows too long for the tile (more than
// kMaxWindow) read global memory through __ldg instead.
// Step 3 (instruction_level_parallelism): each pass keeps four independent
// partial sums (window positions s, s+1, s+2, s+3), so four dependent double
// additions are in flight instead of one chain.
constexpr int kTicks = 256;
constexpr int kMaxWindow = 1024;

__device__ __forceinline__ void window_stats(const double* p, int cnt, double& mean, double& sd) {
  double a0 = 0.0, a1 = 0.0, a2 = 0.0, a3 = 0.0;
  int s = 0;
  for (; s + 3 < cnt; s += 4) {
    a0 += p[s];
    a1 += p[s + 1];
    a2 += p[s + 2];
    a3 += p[s + 3];
  }
  for (; s < cnt; ++s) a0 += p[s];
  mean = ((a0 + a1) + (a2 + a3)) / cnt;
  double q0 = 0.0, q1 = 0.0, q2 = 0.0, q3 = 0.0;
  for (s = 0; s + 3 < cnt; s += 4) {
    double d0 = p[s] - mean, d1 = p[s + 1] - mean, d2 = p[s + 2] - mean, d3 = p[s + 3] - mean;
    q0 += d0 * d0;
    q1 += d1 * d1;
    q2 += d2 * d2;
    q3 += d3 * d3;
  }
  for (; s < cnt; ++s) {
    double d = p[s] - mean;
    q0 += d * d;
  }
  sd = sqrt(((q0 + q1) + (q2 + q3)) / cnt);
}

__global__ void bollinger_kernel(int n, const double* __restrict__ price, int w, double k,
                                 double* __restrict__ mid, double* __restrict__ upper,
                                 double* __restrict__ lower) {
  extern __shared__ double tile[];  // kTicks + w - 1 prices when staged
  int i0 = blockIdx.x * kTicks;
  int t = i0 + threadIdx.x;
  bool staged = w <= kMaxWindow;
  int first = i0 - w + 1;  // price index of tile[0]
  if (staged) {
    int span = kTicks + w - 1;
    for (int s = threadIdx.x; s < span; s += blockDim.x) {
      int g = first + s;
      tile[s] = (g >= 0 && g < n) ? __ldg(&price[g]) : 0.0;
    }
    __syncthreads();
  }
  if (t >= n) return;
  int lo = max(0, t - w + 1);
  int cnt = t - lo + 1;
  const double* p = staged ? tile + (lo - first) : price + lo;
  double mean, sd;
  window_stats(p, cnt, mean, sd);
  mid[t] = mean;
  upper[t] = mean + k * sd;
  lower[t] = mean - k * sd;
}

void bollingerBands(int n, const double* price, int w, double k, double* mid, double* upper,
                    double* lower) {
  if (n <= 0) return;
  if (w < 1) w = 1;
  size_t bytes = (size_t)n * sizeof(double);
  double *d_p = nullptr, *d_mid = nullptr, *d_up = nullptr, *d_lo = nullptr;
  cudaMalloc(&d_p, bytes);
  cudaMalloc(&d_mid, bytes);
  cudaMalloc(&d_up, bytes);
  cudaMalloc(&d_lo, bytes);
  cudaMemcpy(d_p, price, bytes, cudaMemcpyHostToDevice);
  size_t smem = w <= kMaxWindow ? (size_t)(kTicks + w - 1) * sizeof(double) : 0;
  bollinger_kernel<<<(n + kTicks - 1) / kTicks, kTicks, smem>>>(n, d_p, w, k, d_mid, d_up, d_lo);
  cudaMemcpy(mid, d_mid, bytes, cudaMemcpyDeviceToHost);
  cudaMemcpy(upper, d_up, bytes, cudaMemcpyDeviceToHost);
  cudaMemcpy(lower, d_lo, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_p);
  cudaFree(d_mid);
  cudaFree(d_up);
  cudaFree(d_lo);
}
