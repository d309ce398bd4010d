#include <cuda_runtime.h>

// Step 1 (thread_mapping): one thread per output sample.
// Step 2 (algorithmic_restructuring): polyphase form. For output k with
// m0 = k*M, only taps j with (m0 - j) % L == 0 contribute, i.e. j = p, p+L,
// p+2L, ... with p = m0 % L, reading x[(m0 - j) / L]; visiting them in
// increasing j keeps the reference's summation order, with no test per tap.
// Step 3 (shared_memory_tiling): the T taps are read by every thread, so a
// block stages them in shared memory once (when they fit in 48 KB; larger
// filters are read from global memory).
// Step 4 (read_only_cache): input samples are gathered with __ldg through the
// read-only data cache; outputs of one block read overlapping windows.
constexpr int kPrBlock = 256;
constexpr int kPrMaxSharedTaps = 12288;

template <bool kShared>
__global__ void polyphase_kernel(const float* __restrict__ x, int n, const float* __restrict__ h, int T, int L, int M,
                                 int nout, float* __restrict__ y) {
  extern __shared__ float taps[];
  const float* hp = h;
  if (kShared) {
    for (int j = threadIdx.x; j < T; j += blockDim.x) taps[j] = h[j];
    __syncthreads();
    hp = taps;
  }
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= nout) return;
  long long m0 = (long long)k * M;
  int p = (int)(m0 % L);
  long long i = (m0 - p) / L;  // input index for tap p
  float acc = 0.0f;
  for (int j = p; j < T && i >= 0; j += L, --i) {
    if (i < n) acc += hp[j] * __ldg(x + i);
  }
  y[k] = acc;
}

void polyphaseResample(const float* x, int n, const float* h, int T, int L, int M, float* y) {
  if (n <= 0 || T <= 0 || L <= 0 || M <= 0) return;
  int nout = (int)(((long long)n * L + M - 1) / M);
  float *dx = nullptr, *dh = nullptr, *dy = nullptr;
  cudaMalloc(&dx, (size_t)n * sizeof(float));
  cudaMalloc(&dh, (size_t)T * sizeof(float));
  cudaMalloc(&dy, (size_t)nout * sizeof(float));
  cudaMemcpy(dx, x, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dh, h, (size_t)T * sizeof(float), cudaMemcpyHostToDevice);
  int grid = (nout + kPrBlock - 1) / kPrBlock;
  if (T <= kPrMaxSharedTaps) {
    polyphase_kernel<true><<<grid, kPrBlock, (size_t)T * sizeof(float)>>>(dx, n, dh, T, L, M, nout, dy);
  } else {
    polyphase_kernel<false><<<grid, kPrBlock>>>(dx, n, dh, T, L, M, nout, dy);
  }
  cudaMemcpy(y, dy, (size_t)nout * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dh);
  cudaFree(dy);
}
