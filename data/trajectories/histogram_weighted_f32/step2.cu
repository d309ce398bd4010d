#include <cuda_runtime.h>

constexpr int kMaxSharedBins = 8192;  // 32 KiB of shared memory

__global__ void weighted_hist_global(int n, const int* __restrict__ bin_of, const float* __restrict__ weight,
                                     float* hist) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&hist[bin_of[i]], weight[i]);
}

// Per-block private histogram in dynamic shared memory (nbins floats):
// shared atomics during accumulation, one global atomic per non-zero bin per block.
__global__ void weighted_hist_shared(int n, const int* __restrict__ bin_of, const float* __restrict__ weight,
                                     int nbins, float* hist) {
  extern __shared__ float local[];
  for (int b = threadIdx.x; b < nbins; b += blockDim.x) local[b] = 0.0f;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&local[bin_of[i]], weight[i]);
  __syncthreads();
  for (int b = threadIdx.x; b < nbins; b += blockDim.x) {
    float v = local[b];
    if (v != 0.0f) atomicAdd(&hist[b], v);
  }
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
    if (nbins <= kMaxSharedBins) {
      size_t smem = static_cast<size_t>(nbins) * sizeof(float);
      weighted_hist_shared<<<grid, block, smem>>>(n, dbin, dw, nbins, dhist);
    } else {
      weighted_hist_global<<<grid, block>>>(n, dbin, dw, dhist);
    }
    cudaFree(dbin);
    cudaFree(dw);
  }
  cudaMemcpy(hist, dhist, static_cast<size_t>(nbins) * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(dhist);
}
