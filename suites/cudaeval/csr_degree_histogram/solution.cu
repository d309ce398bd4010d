#include <cuda_runtime.h>
#include <cstddef>

// The histogram bin of vertex v: its out-degree, with every degree of
// nbins - 1 or more in the last bin.
__device__ __forceinline__ int degree_bin(const int* __restrict__ row_ptr, int v, int last_bin) {
  int d = row_ptr[v + 1] - row_ptr[v];
  return d < last_bin ? d : last_bin;
}

// Step 1 (thread_mapping): each vertex's degree is independent; a grid-stride
// loop gives one thread per vertex.
// Step 2 (atomic_aggregation): a block counts into its own histogram in
// dynamic shared memory (shared atomics are cheap and contend only within the
// block) and adds each non-zero bin to the global histogram once.
__global__ void degree_hist_kernel(int n, const int* __restrict__ row_ptr, int nbins, int* __restrict__ hist) {
  extern __shared__ int counts[];
  const int last_bin = nbins - 1;
  int t = threadIdx.x;
  while (t < nbins) {
    counts[t] = 0;
    t += blockDim.x;
  }
  __syncthreads();
  for (int v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x) {
    atomicAdd(counts + degree_bin(row_ptr, v, last_bin), 1);
  }
  __syncthreads();
  t = threadIdx.x;
  while (t < nbins) {
    if (counts[t] != 0) atomicAdd(hist + t, counts[t]);
    t += blockDim.x;
  }
}

// Fallback for histograms too large for shared memory (not the usual case):
// the same binning with global atomics.
__global__ void degree_hist_global_kernel(int n, const int* __restrict__ row_ptr, int nbins, int* __restrict__ hist) {
  for (int v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x) {
    atomicAdd(hist + degree_bin(row_ptr, v, nbins - 1), 1);
  }
}

void degreeHistogram(int n, const int* row_ptr, int nbins, int* hist) {
  if (nbins <= 0) return;
  int* dhist = nullptr;
  cudaMalloc(&dhist, (size_t)nbins * sizeof(int));
  cudaMemset(dhist, 0, (size_t)nbins * sizeof(int));
  int* drp = nullptr;
  if (n > 0) {
    cudaMalloc(&drp, ((size_t)n + 1) * sizeof(int));
    cudaMemcpy(drp, row_ptr, ((size_t)n + 1) * sizeof(int), cudaMemcpyHostToDevice);
    int device = 0, sms = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (sms <= 0) sms = 80;
    const int block = 256;
    int needed = (n + block - 1) / block;
    int cap = sms * 4;
    int grid = needed < cap ? needed : cap;
    size_t smem = (size_t)nbins * sizeof(int);
    if (smem <= 48 * 1024) {
      degree_hist_kernel<<<grid, block, smem>>>(n, drp, nbins, dhist);
    } else {
      degree_hist_global_kernel<<<grid, block>>>(n, drp, nbins, dhist);
    }
  }
  cudaMemcpy(hist, dhist, (size_t)nbins * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(drp);
  cudaFree(dhist);
}
