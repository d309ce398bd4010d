#include <cuda_runtime.h>

constexpr int kBlock = 256;
constexpr int kMaxBlocks = 1024;

__device__ __forceinline__ int leading_digit(int v) {
  while (v >= 10) v /= 10;
  return v;
}

__device__ __forceinline__ void count_value(int v, int* bins) {
  if (v > 0) atomicAdd(&bins[leading_digit(v) - 1], 1);
}

// The grid-stride loop reads int4 groups (cudaMalloc alignment); the n % 4
// trailing values go to the threads with global index below n % 4.
__global__ void digit_vec_kernel(int n, const int* x, int* counts) {
  __shared__ int bins[9];
  if (threadIdx.x < 9) bins[threadIdx.x] = 0;
  __syncthreads();
  int n4 = n >> 2;
  const int4* x4 = reinterpret_cast<const int4*>(x);
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = gridDim.x * blockDim.x;
  for (int g = gid; g < n4; g += stride) {
    int4 q = x4[g];
    count_value(q.x, bins);
    count_value(q.y, bins);
    count_value(q.z, bins);
    count_value(q.w, bins);
  }
  int tail = (n4 << 2) + gid;
  if (tail < n) count_value(x[tail], bins);
  __syncthreads();
  if (threadIdx.x < 9 && bins[threadIdx.x] != 0) atomicAdd(&counts[threadIdx.x], bins[threadIdx.x]);
}

void leadingDigitCounts(int n, const int* x, int* counts) {
  int* dcounts = nullptr;
  cudaMalloc(&dcounts, 9 * sizeof(int));
  cudaMemset(dcounts, 0, 9 * sizeof(int));
  if (n > 0) {
    int* dx = nullptr;
    cudaMalloc(&dx, static_cast<size_t>(n) * sizeof(int));
    cudaMemcpy(dx, x, static_cast<size_t>(n) * sizeof(int), cudaMemcpyHostToDevice);
    int groups = (n + 3) / 4;
    int blocks = (groups + kBlock - 1) / kBlock;
    if (blocks > kMaxBlocks) blocks = kMaxBlocks;
    digit_vec_kernel<<<blocks, kBlock>>>(n, dx, dcounts);
    cudaFree(dx);
  }
  cudaMemcpy(counts, dcounts, 9 * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dcounts);
}
