#include <cuda_runtime.h>
#include <climits>

constexpr int kBlock = 256;
constexpr int kSumBlock = 1024;

// Hillis-Steele inclusive max-scan of one value per thread in shared memory.
__device__ int hs_inclusive_max(int v, int* s) {
  int tid = threadIdx.x;
  s[tid] = v;
  __syncthreads();
  for (int off = 1; off < blockDim.x; off <<= 1) {
    int t = (tid >= off) ? s[tid - off] : INT_MIN;
    __syncthreads();
    s[tid] = max(s[tid], t);
    __syncthreads();
  }
  return s[tid];
}

// Phase 1: maximum of each 256-element block (shared-memory tree).
__global__ void block_max_kernel(int n, const int* x, int* block_max) {
  __shared__ int s[kBlock];
  int tid = threadIdx.x;
  int i = blockIdx.x * kBlock + tid;
  s[tid] = (i < n) ? x[i] : INT_MIN;
  __syncthreads();
  for (int h = kBlock / 2; h > 0; h >>= 1) {
    if (tid < h) s[tid] = max(s[tid], s[tid + h]);
    __syncthreads();
  }
  if (tid == 0) block_max[blockIdx.x] = s[0];
}

// Phase 2: one block turns the block maxima into an inclusive running max,
// chunk by chunk with a carried maximum.
__global__ void scan_block_max_kernel(int count, int* m) {
  __shared__ int s[kSumBlock];
  int carry = INT_MIN;
  for (int base = 0; base < count; base += kSumBlock) {
    int i = base + threadIdx.x;
    int v = (i < count) ? m[i] : INT_MIN;
    int incl = max(carry, hs_inclusive_max(v, s));
    if (i < count) m[i] = incl;
    carry = max(carry, s[kSumBlock - 1]);
    __syncthreads();
  }
}

// Phase 3: scan each block and fold in the running max of all earlier blocks.
__global__ void block_scan_kernel(int n, const int* x, int* y, const int* scanned_max) {
  __shared__ int s[kBlock];
  int i = blockIdx.x * kBlock + threadIdx.x;
  int v = (i < n) ? x[i] : INT_MIN;
  int incl = hs_inclusive_max(v, s);
  int before = (blockIdx.x > 0) ? scanned_max[blockIdx.x - 1] : INT_MIN;
  if (i < n) y[i] = max(incl, before);
}

void runningMaximum(int n, const int* x, int* y) {
  if (n <= 0) return;
  int nb = (n + kBlock - 1) / kBlock;
  int *dx = nullptr, *dy = nullptr, *dm = nullptr;
  cudaMalloc(&dx, static_cast<size_t>(n) * sizeof(int));
  cudaMalloc(&dy, static_cast<size_t>(n) * sizeof(int));
  cudaMalloc(&dm, static_cast<size_t>(nb) * sizeof(int));
  cudaMemcpy(dx, x, static_cast<size_t>(n) * sizeof(int), cudaMemcpyHostToDevice);
  block_max_kernel<<<nb, kBlock>>>(n, dx, dm);
  scan_block_max_kernel<<<1, kSumBlock>>>(nb, dm);
  block_scan_kernel<<<nb, kBlock>>>(n, dx, dy, dm);
  cudaMemcpy(y, dy, static_cast<size_t>(n) * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
  cudaFree(dm);
}
