#include <cuda_runtime.h>
#include <cstddef>
#include <cstdint>
#include <vector>

// Trajectory:
// 1 thread_mapping: every byte is binned by some thread.
// 2 atomic_operations: concurrent increments of the same bin are made safe
//   with atomicAdd.
// 3 atomic_aggregation: each block first builds a private 256-bin histogram in
//   shared memory (fast shared atomics, contention limited to the block), then
//   adds its non-zero bins to the global histogram: 256 global atomics per
//   block instead of one per byte.
// 4 grid_stride_loop: a grid of a few blocks per SM strides over the data, so
//   each private histogram absorbs many bytes before its flush.
// 5 vectorized_memory_access: each thread reads 16 bytes at a time (uint4) and
//   bins all 16; the n % 16 leftover bytes are handled by the first threads.
constexpr int kHistBlock = 256;  // must equal the number of bins

__device__ __forceinline__ void bin_word(unsigned int* hist, unsigned int w) {
  atomicAdd(&hist[w & 0xffu], 1u);
  atomicAdd(&hist[(w >> 8) & 0xffu], 1u);
  atomicAdd(&hist[(w >> 16) & 0xffu], 1u);
  atomicAdd(&hist[w >> 24], 1u);
}

__global__ void histogram_u8_kernel(const uint8_t* __restrict__ data, size_t n, unsigned int* __restrict__ counts) {
  __shared__ unsigned int hist[256];
  hist[threadIdx.x] = 0;
  __syncthreads();
  const uint4* data16 = reinterpret_cast<const uint4*>(data);
  size_t n16 = n / 16;
  size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = tid; i < n16; i += stride) {
    uint4 v = data16[i];
    bin_word(hist, v.x);
    bin_word(hist, v.y);
    bin_word(hist, v.z);
    bin_word(hist, v.w);
  }
  size_t rem = n - n16 * 16;  // 0..15 leftover bytes
  if (tid < rem) atomicAdd(&hist[data[n16 * 16 + tid]], 1u);
  __syncthreads();
  unsigned int c = hist[threadIdx.x];
  if (c != 0) atomicAdd(&counts[threadIdx.x], c);
}

void histogramU8(const std::vector<uint8_t>& data, std::vector<int>& counts) {
  size_t n = data.size();
  unsigned int* dcounts = nullptr;
  cudaMalloc(&dcounts, 256 * sizeof(unsigned int));
  cudaMemset(dcounts, 0, 256 * sizeof(unsigned int));
  uint8_t* ddata = nullptr;
  if (n > 0) {
    cudaMalloc(&ddata, n);
    cudaMemcpy(ddata, data.data(), n, cudaMemcpyHostToDevice);
    int device = 0, sms = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (sms <= 0) sms = 80;
    size_t needed = (n / 16 + kHistBlock - 1) / kHistBlock;
    size_t cap = (size_t)sms * 4;
    int grid = (int)(needed < cap ? needed : cap);
    if (grid < 1) grid = 1;
    histogram_u8_kernel<<<grid, kHistBlock>>>(ddata, n, dcounts);
  }
  static_assert(sizeof(int) == sizeof(unsigned int), "int and unsigned int differ in size");
  cudaMemcpy(counts.data(), dcounts, 256 * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(ddata);
  cudaFree(dcounts);
}
