#include <cuda_runtime.h>
#include <vector>

__global__ void lis_fill_ones(int n, int* L) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) L[i] = 1;
}

// Element i: every earlier element j that is smaller proposes L[j] + 1 with an
// atomicMax on L[i].
__global__ void lis_element(int i, const int* a, int* L) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < i && a[j] < a[i]) atomicMax(&L[i], L[j] + 1);
}

__global__ void lis_max(int n, const int* L, int* best) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicMax(best, L[i]);
}

int longest_increasing_subsequence(const std::vector<int>& a) {
  int n = (int)a.size();
  if (n == 0) return 0;
  int *d_a = nullptr, *d_L = nullptr, *d_best = nullptr;
  cudaMalloc(&d_a, (size_t)n * sizeof(int));
  cudaMalloc(&d_L, (size_t)n * sizeof(int));
  cudaMalloc(&d_best, sizeof(int));
  cudaMemcpy(d_a, a.data(), (size_t)n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(d_best, 0, sizeof(int));
  lis_fill_ones<<<(n + 255) / 256, 256>>>(n, d_L);
  for (int i = 1; i < n; ++i) lis_element<<<(i + 255) / 256, 256>>>(i, d_a, d_L);
  lis_max<<<(n + 255) / 256, 256>>>(n, d_L, d_best);
  int best = 0;
  cudaMemcpy(&best, d_best, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d_a);
  cudaFree(d_L);
  cudaFree(d_best);
  return best;
}
