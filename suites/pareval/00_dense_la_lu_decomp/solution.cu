#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

// Right-looking LU without pivoting, one launch per elimination step k.
// Step k updates the trailing block A[i][j] -= (A[i][k] / A[k][k]) * A[k][j]
// for i, j > k, each thread computing its row's multiplier from the still
// unscaled A[i][k]. Writing the multipliers into column k is deferred to step
// k + 1 (which never reads column k), so no thread reads what another thread
// of the same launch writes. The arithmetic is the reference's (no fused
// multiply-add), so the factors match it bit for bit.
__global__ void lu_step(double* __restrict__ A, int N, int k) {
  const int j = (k > 0 ? k - 1 : 0) + (int)(blockIdx.x * blockDim.x + threadIdx.x);
  const int i = k + (int)(blockIdx.y * blockDim.y + threadIdx.y);
  if (i >= N || j >= N) return;
  if (k > 0 && j == k - 1) {
    // multiplier of step k - 1 for row i (i >= k > k - 1)
    A[(size_t)i * N + j] = A[(size_t)i * N + j] / A[(size_t)(k - 1) * N + (k - 1)];
  } else if (i > k && j > k) {
    const double l = A[(size_t)i * N + k] / A[(size_t)k * N + k];
    const double a = A[(size_t)i * N + j];
    A[(size_t)i * N + j] = __dsub_rn(a, __dmul_rn(l, A[(size_t)k * N + j]));
  }
}

void luFactorize(std::vector<double> &A, size_t N) {
  if (N == 0) return;
  size_t bytes = N * N * sizeof(double);
  double* dA = nullptr;
  cudaMalloc(&dA, bytes);
  cudaMemcpy(dA, A.data(), bytes, cudaMemcpyHostToDevice);
  const int n = (int)N;
  dim3 block(32, 8);
  for (int k = 0; k < n; ++k) {
    int cols = n - (k > 0 ? k - 1 : 0);
    int rows = n - k;
    dim3 grid((unsigned)((cols + block.x - 1) / block.x), (unsigned)((rows + block.y - 1) / block.y));
    lu_step<<<grid, block>>>(dA, n, k);
  }
  cudaMemcpy(A.data(), dA, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dA);
}
