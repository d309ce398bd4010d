#include <cuda_runtime.h>

// Step 1 (thread_mapping): one thread per cell.
// Step 2 (shared_memory_tiling): each block stages its blockDim.x cells plus
// one halo cell on each side in shared memory (the halo wraps around the
// periodic grid), so every value is loaded from global memory once and the
// stencil reads its neighbours on chip.
constexpr int kBlfBlock = 256;

__global__ void burgers_lf_kernel(const double* __restrict__ u, double* __restrict__ u_new, int n, double c) {
  __shared__ double s[kBlfBlock + 2];
  int i = blockIdx.x * kBlfBlock + threadIdx.x;
  if (i < n) s[threadIdx.x + 1] = u[i];
  if (threadIdx.x == 0) {
    int left = blockIdx.x * kBlfBlock - 1;
    s[0] = u[left < 0 ? n - 1 : left];
  }
  int last = min(kBlfBlock, n - blockIdx.x * kBlfBlock);  // cells in this block
  if (threadIdx.x == last - 1) {
    int right = i + 1;
    s[last + 1] = u[right >= n ? 0 : right];
  }
  __syncthreads();
  if (i >= n) return;
  double ul = s[threadIdx.x];
  double ur = s[threadIdx.x + 2];
  double fl = 0.5 * ul * ul;
  double fr = 0.5 * ur * ur;
  u_new[i] = 0.5 * (ul + ur) - 0.5 * c * (fr - fl);
}

void burgersLaxFriedrichsStep(const double* u, double* u_new, int n, double c) {
  if (n <= 0) return;
  double *du = nullptr, *dnew = nullptr;
  cudaMalloc(&du, (size_t)n * sizeof(double));
  cudaMalloc(&dnew, (size_t)n * sizeof(double));
  cudaMemcpy(du, u, (size_t)n * sizeof(double), cudaMemcpyHostToDevice);
  burgers_lf_kernel<<<(n + kBlfBlock - 1) / kBlfBlock, kBlfBlock>>>(du, dnew, n, c);
  cudaMemcpy(u_new, dnew, (size_t)n * sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(du);
  cudaFree(dnew);
}
