#include <cuda_runtime.h>

constexpr int kMaxSharedBins = 8192;
constexpr int kBlock = 512;

__global__ void weighted_hist_global(int n, const int* __restrict__ bin_of, const float* __restrict__ weight,
                                     float* hist) {
  int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) atomicAdd(&hist[bin_of[i]], weight[i]);
}

__global__ void weighted_hist_shared(int n, const int* __restrict__ bin_of, const float* __restrict__ weight,
                                     int nbins, float* hist) {
  extern __shared__ float local[];
  for (int b = threadIdx.x; b < nbins; b += blockDim.x) local[b] = 0.0f;
  __syncthreads();
  int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) atomicAdd(&local[bin_of[i]], weight[i]);
  __syncthreads();
  for (int b = threadIdx.x; b < nbins; b += blockDim.x) {
    float v = local[b];
    if (v != 0.0f) atomicAdd(&hist[b], v);
  }
}

// The grid is derived from the hardware: resident blocks per SM for this
// block size and this much dynamic shared memory (the occupancy API), times
// the SM count. That is one full wave, each block merging its histogram once;
// 512-thread blocks halve the number of private copies to zero and merge.
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
    int device = 0, sms = 1, per_sm = 1;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (sms < 1) sms = 1;
    int needed = (n + kBlock - 1) / kBlock;
    if (nbins <= kMaxSharedBins) {
      size_t smem = static_cast<size_t>(nbins) * sizeof(float);
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, weighted_hist_shared, kBlock, smem);
      if (per_sm < 1) per_sm = 1;
      int grid = sms * per_sm < needed ? sms * per_sm : needed;
      weighted_hist_shared<<<grid, kBlock, smem>>>(n, dbin, dw, nbins, dhist);
    } else {
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, weighted_hist_global, kBlock, 0);
      if (per_sm < 1) per_sm = 1;
      int grid = sms * per_sm < needed ? sms * per_sm : needed;
      weighted_hist_global<<<grid, kBlock>>>(n, dbin, dw, dhist);
    }
    cudaFree(dbin);
    cudaFree(dw);
  }
  cudaMemcpy(hist, dhist, static_cast<size_t>(nbins) * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(dhist);
}
