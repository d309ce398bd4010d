#include <cuda_runtime.h>

// One thread per element: float atomicAdd of its weight into the global bin.
__global__ void weighted_hist_global(int n, const int* bin_of, const float* weight, float* hist) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&hist[bin_of[i]], weight[i]);
}

void weightedBinSums(int n, const int* bin_of, const float* weight, int nbins, float* hist) {
  if (nbins <= 0) return;
  float* dhist = nullptr;
  cudaMalloc(&dhist, static_cast<size_t>(nbins) * sizeof(float));
  cudaMemset(dhist, 0, static_cast<size_t>(nbins) * sizeof(float));
  if (n > 0) {
    int* dbin = nullptr;
    float* dw = nullptr;
    cudaMalloc(&dbin, static_cast<size_t>(n) * sizeof(int));
    cudaMalloc(&dw, static_cast<size_t>(n) * sizeof(float));
    cudaMemcpy(dbin, bin_of, static_cast<size_t>(n) * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(dw, weight, static_cast<size_t>(n) * sizeof(float), cudaMemcpyHostToDevice);
    int block = 256;
    int grid = (n + block - 1) / block;
    weighted_hist_global<<<grid, block>>>(n, dbin, dw, dhist);
    cudaFree(dbin);
    cudaFree(dw);
  }
  cudaMemcpy(hist, dhist, static_cast<size_t>(nbins) * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(dhist);
}
