#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

// Radix select, most significant byte first: each pass histograms the byte of
// the elements that still match the chosen prefix, then one block picks the bin
// holding the wanted rank. Four passes over the data, everything on the device.

struct SelectState {
  unsigned prefix;     // chosen high bytes of the answer (order-preserving bits)
  unsigned remaining;  // rank of the answer among the elements matching the prefix
};

__device__ __forceinline__ unsigned orderedBits(int v) { return (unsigned)v ^ 0x80000000u; }

__global__ void initSelect(SelectState* st, unsigned* hist, int k) {
  unsigned t = threadIdx.x;
  if (t < 256) hist[t] = 0;
  if (t == 0) {
    st->prefix = 0;
    st->remaining = (unsigned)(k - 1);
  }
}

__global__ void histogramPass(const int* __restrict__ x, size_t n, const SelectState* __restrict__ st,
                              unsigned* __restrict__ hist, int shift) {
  __shared__ unsigned local[256];
  for (unsigned t = threadIdx.x; t < 256; t += blockDim.x) local[t] = 0;
  __syncthreads();
  unsigned prefix = st->prefix;
  unsigned highMask = shift >= 24 ? 0u : (0xffffffffu << (shift + 8));
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    unsigned u = orderedBits(x[i]);
    if (((u ^ prefix) & highMask) == 0) atomicAdd(&local[(u >> shift) & 255u], 1u);
  }
  __syncthreads();
  for (unsigned t = threadIdx.x; t < 256; t += blockDim.x) {
    if (local[t]) atomicAdd(&hist[t], local[t]);
  }
}

// One block of 256 threads: scan the histogram, keep the bin containing the
// remaining rank, clear the histogram for the next pass.
__global__ void choosePass(SelectState* st, unsigned* hist, int shift, int* result) {
  __shared__ unsigned incl[256];
  unsigned t = threadIdx.x;
  unsigned c = hist[t];
  incl[t] = c;
  __syncthreads();
  for (unsigned off = 1; off < 256; off <<= 1) {
    unsigned add = t >= off ? incl[t - off] : 0u;
    __syncthreads();
    incl[t] += add;
    __syncthreads();
  }
  unsigned rem = st->remaining;
  unsigned excl = incl[t] - c;
  __syncthreads();
  if (c > 0 && excl <= rem && rem < incl[t]) {
    unsigned prefix = st->prefix | (t << shift);
    st->prefix = prefix;
    st->remaining = rem - excl;
    if (shift == 0) *result = (int)(prefix ^ 0x80000000u);
  }
  hist[t] = 0;
}

int findKthSmallest(std::vector<int> const& x, int k) {
  size_t n = x.size();
  int* dx = nullptr;
  int* dResult = nullptr;
  unsigned* dHist = nullptr;
  SelectState* dState = nullptr;
  cudaMalloc(&dx, n * sizeof(int));
  cudaMalloc(&dResult, sizeof(int));
  cudaMalloc(&dHist, 256 * sizeof(unsigned));
  cudaMalloc(&dState, sizeof(SelectState));
  cudaMemcpy(dx, x.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  initSelect<<<1, 256>>>(dState, dHist, k);
  const unsigned block = 256;
  size_t want = (n + block - 1) / block;
  unsigned grid = (unsigned)(want < 1 ? 1 : (want < 1024 ? want : 1024));
  for (int shift = 24; shift >= 0; shift -= 8) {
    histogramPass<<<grid, block>>>(dx, n, dState, dHist, shift);
    choosePass<<<1, 256>>>(dState, dHist, shift, dResult);
  }
  int result = 0;
  cudaMemcpy(&result, dResult, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dResult);
  cudaFree(dHist);
  cudaFree(dState);
  return result;
}
