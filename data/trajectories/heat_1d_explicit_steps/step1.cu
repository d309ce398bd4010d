#include <cuda_runtime.h>
#include <vector>

// One time step, one thread per cell; end cells are copied unchanged.
__global__ void heat_step(int n, double r, const double* cur, double* nxt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (i == 0 || i == n - 1) {
    nxt[i] = cur[i];
    return;
  }
  nxt[i] = cur[i] + r * (cur[i - 1] - 2.0 * cur[i] + cur[i + 1]);
}

void heat1d_explicit(std::vector<double>& u, int steps, double r) {
  int n = (int)u.size();
  if (n <= 0) return;
  size_t bytes = (size_t)n * sizeof(double);
  double *d_a = nullptr, *d_b = nullptr;
  cudaMalloc(&d_a, bytes);
  cudaMalloc(&d_b, bytes);
  cudaMemcpy(d_a, u.data(), bytes, cudaMemcpyHostToDevice);
  int blocks = (n + 255) / 256;
  for (int s = 0; s < steps; ++s) {
    heat_step<<<blocks, 256>>>(n, r, d_a, d_b);
    double* t = d_a;
    d_a = d_b;
    d_b = t;
  }
  cudaMemcpy(u.data(), d_a, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_a);
  cudaFree(d_b);
}
