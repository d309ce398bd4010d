#include <cuda_runtime.h>
#include <math.h>

// Step 1 (thread_mapping): one block per option; the nodes of a tree level
// are updated in parallel by the block's threads.
// Step 2 (register_tiling): thread t owns the contiguous nodes
// [t * R, t * R + R) and keeps their values and asset prices in registers;
// node i's update needs node i + 1, which is in the same thread except for
// the last node of the run.
// Step 3 (shared_memory_tiling): that one boundary value per thread (the
// first node of the next thread's run) is exchanged through shared memory.
// Step 4 (synchronization_reduction): the exchange uses two buffers used on
// alternate levels, so a level needs a single __syncthreads.
// Step 5 (strength_reduction): node asset prices are computed once (one exp
// per node at the leaves) and multiplied by u per level, instead of a pow per
// node per level; disc * p and disc * (1 - p) are precomputed.
// Step 6 (warp_divergence_elimination): with contiguous runs the threads
// whose nodes are all beyond the current level are whole trailing warps,
// which skip the update, instead of idle lanes in every warp.
constexpr int kThreads = 256;

template <int R>
__global__ void binomial_kernel(int n, const double* __restrict__ S, const double* __restrict__ K,
                                const double* __restrict__ T, const double* __restrict__ r,
                                const double* __restrict__ sigma, int steps,
                                double* __restrict__ price) {
  __shared__ double boundary[2][kThreads + 1];
  for (int o = blockIdx.x; o < n; o += gridDim.x) {
    double s0 = S[o], k = K[o];
    double dt = T[o] / steps;
    double u = exp(sigma[o] * sqrt(dt));
    double d = 1.0 / u;
    double p = (exp(r[o] * dt) - d) / (u - d);
    double disc = exp(-r[o] * dt);
    double pu = disc * p, pd = disc * (1.0 - p);
    double log_u = log(u);
    int base = threadIdx.x * R;
    double v[R], ex_price[R];
#pragma unroll
    for (int q = 0; q < R; ++q) {
      int i = base + q;
      ex_price[q] = s0 * exp((double)(2 * i - steps) * log_u);
      double ex = k - ex_price[q];
      v[q] = (i <= steps && ex > 0.0) ? ex : 0.0;
    }
    __syncthreads();  // the previous option's readers are done with boundary
    for (int t = steps - 1; t >= 0; --t) {
      int buf = t & 1;
      boundary[buf][threadIdx.x] = v[0];
      if (threadIdx.x == 0) boundary[buf][kThreads] = 0.0;
      __syncthreads();
      if (base <= t) {  // whole trailing warps skip once the level is narrow
        double up_last = boundary[buf][threadIdx.x + 1];
#pragma unroll
        for (int q = 0; q < R; ++q) {
          double up = q + 1 < R ? v[q + 1] : up_last;
          ex_price[q] *= u;  // S u^(2i - t) from S u^(2i - t - 1)
          double cont = pu * up + pd * v[q];
          double ex = k - ex_price[q];
          v[q] = cont > ex ? cont : ex;
        }
      }
    }
    if (threadIdx.x == 0) price[o] = v[0];
  }
}

void binomialAmericanPut(int n, const double* S, const double* K, const double* T, const double* r,
                         const double* sigma, int steps, double* price) {
  if (n <= 0 || steps <= 0) return;
  size_t b = (size_t)n * sizeof(double);
  const double* in[5] = {S, K, T, r, sigma};
  double* d_in[5];
  for (int a = 0; a < 5; ++a) {
    cudaMalloc(&d_in[a], b);
    cudaMemcpy(d_in[a], in[a], b, cudaMemcpyHostToDevice);
  }
  double* d_price = nullptr;
  cudaMalloc(&d_price, b);
  int grid = n < 65535 ? n : 65535;
  int need = (steps + 1 + kThreads - 1) / kThreads;  // nodes per thread
  if (need <= 2) {
    binomial_kernel<2>
        <<<grid, kThreads>>>(n, d_in[0], d_in[1], d_in[2], d_in[3], d_in[4], steps, d_price);
  } else if (need <= 4) {
    binomial_kernel<4>
        <<<grid, kThreads>>>(n, d_in[0], d_in[1], d_in[2], d_in[3], d_in[4], steps, d_price);
  } else if (need <= 8) {
    binomial_kernel<8>
        <<<grid, kThreads>>>(n, d_in[0], d_in[1], d_in[2], d_in[3], d_in[4], steps, d_price);
  } else if (need <= 16) {
    binomial_kernel<16>
        <<<grid, kThreads>>>(n, d_in[0], d_in[1], d_in[2], d_in[3], d_in[4], steps, d_price);
  } else {
    binomial_kernel<32>
        <<<grid, kThreads>>>(n, d_in[0], d_in[1], d_in[2], d_in[3], d_in[4], steps, d_price);
  }
  cudaMemcpy(price, d_price, b, cudaMemcpyDeviceToHost);
  for (int a = 0; a < 5; ++a) cudaFree(d_in[a]);
  cudaFree(d_price);
}
