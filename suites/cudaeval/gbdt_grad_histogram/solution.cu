#include <cuda_runtime.h>

#include <cstdint>

// Step 1 (thread_mapping): one thread per sample adds its gradient and
// hessian to its bin of every feature.
// Step 2 (atomic_operations): samples sharing a bin update it concurrently,
// so the additions are double atomicAdd.
// Step 3 (atomic_aggregation): each block keeps private histograms in shared
// memory for a group of features (blockIdx.y; the group is sized so its two
// double histograms fit in 32 KB) and flushes them with one global atomic per
// non-empty bin, so hot bins no longer serialise the whole grid.
// Step 4 (grid_stride_loop): a bounded grid strides over the samples, so each
// private histogram absorbs many samples before its flush.
constexpr int kThreads = 256;
constexpr int kSharedBytes = 32768;

__global__ void gbdt_hist_kernel(int n, int nfeat, int nbins, int feat_per_group,
                                 const uint8_t* __restrict__ bins, const float* __restrict__ grad,
                                 const float* __restrict__ hess, double* __restrict__ hist_g,
                                 double* __restrict__ hist_h) {
  extern __shared__ double sh[];
  int f0 = blockIdx.y * feat_per_group;
  int nf = min(feat_per_group, nfeat - f0);
  int slots = nf * nbins;
  double* sg = sh;
  double* shh = sh + slots;
  for (int k = threadIdx.x; k < 2 * slots; k += blockDim.x) sh[k] = 0.0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    double g = __ldg(&grad[i]);
    double hv = __ldg(&hess[i]);
    const uint8_t* row = bins + (long long)i * nfeat + f0;
    for (int f = 0; f < nf; ++f) {
      int k = f * nbins + row[f];
      atomicAdd(&sg[k], g);
      atomicAdd(&shh[k], hv);
    }
  }
  __syncthreads();
  for (int k = threadIdx.x; k < slots; k += blockDim.x) {
    double g = sg[k], hv = shh[k];
    if (g != 0.0 || hv != 0.0) {
      atomicAdd(&hist_g[(long long)f0 * nbins + k], g);
      atomicAdd(&hist_h[(long long)f0 * nbins + k], hv);
    }
  }
}

void gbdtGradHistogram(int n, int nfeat, int nbins, const uint8_t* bins, const float* grad,
                       const float* hess, double* hist_g, double* hist_h) {
  if (nfeat <= 0 || nbins <= 0) return;
  if (n < 0) n = 0;
  size_t slots = (size_t)nfeat * nbins;
  size_t bin_bytes = (size_t)n * nfeat;
  uint8_t* d_bins = nullptr;
  float *d_grad = nullptr, *d_hess = nullptr;
  double *d_g = nullptr, *d_h = nullptr;
  cudaMalloc(&d_bins, bin_bytes > 0 ? bin_bytes : 1);
  cudaMalloc(&d_grad, (size_t)(n > 0 ? n : 1) * sizeof(float));
  cudaMalloc(&d_hess, (size_t)(n > 0 ? n : 1) * sizeof(float));
  cudaMalloc(&d_g, slots * sizeof(double));
  cudaMalloc(&d_h, slots * sizeof(double));
  cudaMemset(d_g, 0, slots * sizeof(double));
  cudaMemset(d_h, 0, slots * sizeof(double));
  if (n > 0) {
    cudaMemcpy(d_bins, bins, bin_bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(d_grad, grad, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_hess, hess, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
    int feat_per_group = kSharedBytes / (2 * (int)sizeof(double) * nbins);
    if (feat_per_group < 1) feat_per_group = 1;
    if (feat_per_group > nfeat) feat_per_group = nfeat;
    int groups = (nfeat + feat_per_group - 1) / feat_per_group;
    int blocks = (n + kThreads - 1) / kThreads;
    dim3 grid(blocks < 128 ? blocks : 128, groups);
    size_t smem = (size_t)2 * feat_per_group * nbins * sizeof(double);
    gbdt_hist_kernel<<<grid, kThreads, smem>>>(n, nfeat, nbins, feat_per_group, d_bins, d_grad,
                                               d_hess, d_g, d_h);
  }
  cudaMemcpy(hist_g, d_g, slots * sizeof(double), cudaMemcpyDeviceToHost);
  cudaMemcpy(hist_h, d_h, slots * sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(d_bins);
  cudaFree(d_grad);
  cudaFree(d_hess);
  cudaFree(d_g);
  cudaFree(d_h);
}
