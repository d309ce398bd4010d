#include <cuda_runtime.h>
#include <cmath>
#include <vector>

// Trajectory:
// 1 thread_mapping: the compare-exchange operations of one network step run
//   in parallel, one per thread.
// 2 algorithmic_restructuring: std::sort's data-dependent control flow is
//   replaced by a bitonic sorting network whose compare-exchange pattern is
//   fixed; any length is handled by padding to a power of two with +inf.
// 3 warp_divergence_elimination: instead of one thread per element where only
//   the lower element of each pair works (half the lanes idle, divergent), each
//   thread owns exactly one pair: i = insert a 0 bit at position log2(j) into
//   its pair index, partner i + j; every lane does the same work.
// 4 shared_memory_tiling: all steps with j < 2048 touch pairs inside aligned
//   2048-element tiles, so a block loads its tile into shared memory once and
//   runs those steps there.
// 5 kernel_fusion: all the steps k <= 2048 (first kernel), and for each larger
//   k all the steps j < 2048, are fused into one launch instead of one launch
//   per step.
// 6 minimize_transfers: the data are copied once, padded on the device, sorted
//   entirely on the device and copied back once.
constexpr int kBsTile = 2048;

__device__ __forceinline__ void bs_compare_exchange(float& a, float& b, bool ascending) {
  if ((a > b) == ascending) {
    float t = a;
    a = b;
    b = t;
  }
}

__device__ __forceinline__ unsigned bs_pair_low(unsigned p, unsigned j) {
  // Index with bit j cleared: the p-th pair of the step with distance j.
  return ((p & ~(j - 1u)) << 1) | (p & (j - 1u));
}

__global__ void bs_pad_kernel(float* d, unsigned from, unsigned to) {
  unsigned i = from + blockIdx.x * blockDim.x + threadIdx.x;
  if (i < to) d[i] = INFINITY;
}

// Full bitonic sort of stages k = 2 .. tile inside each tile (tile = 2 * blockDim.x).
__global__ void bs_tile_sort_kernel(float* __restrict__ d, unsigned tile) {
  __shared__ float s[kBsTile];
  const unsigned base = blockIdx.x * tile;
  const unsigned t = threadIdx.x;
  s[t] = d[base + t];
  s[t + blockDim.x] = d[base + t + blockDim.x];
  __syncthreads();
  for (unsigned k = 2; k <= tile; k <<= 1) {
    for (unsigned j = k >> 1; j > 0; j >>= 1) {
      unsigned i = bs_pair_low(t, j);
      bs_compare_exchange(s[i], s[i + j], ((base + i) & k) == 0);
      __syncthreads();
    }
  }
  d[base + t] = s[t];
  d[base + t + blockDim.x] = s[t + blockDim.x];
}

// Steps j = tile/2 .. 1 of stage k (k > tile), inside each tile.
__global__ void bs_tile_merge_kernel(float* __restrict__ d, unsigned k, unsigned tile) {
  __shared__ float s[kBsTile];
  const unsigned base = blockIdx.x * tile;
  const unsigned t = threadIdx.x;
  s[t] = d[base + t];
  s[t + blockDim.x] = d[base + t + blockDim.x];
  __syncthreads();
  for (unsigned j = tile >> 1; j > 0; j >>= 1) {
    unsigned i = bs_pair_low(t, j);
    bs_compare_exchange(s[i], s[i + j], ((base + i) & k) == 0);
    __syncthreads();
  }
  d[base + t] = s[t];
  d[base + t + blockDim.x] = s[t + blockDim.x];
}

// One step (distance j >= tile) of stage k over the whole array, one pair per thread.
__global__ void bs_global_step_kernel(float* __restrict__ d, unsigned half, unsigned j, unsigned k) {
  unsigned p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= half) return;
  unsigned i = bs_pair_low(p, j);
  float a = d[i], b = d[i + j];
  bool ascending = (i & k) == 0;
  if ((a > b) == ascending) {
    d[i] = b;
    d[i + j] = a;
  }
}

void bitonicSortF32(std::vector<float>& data) {
  size_t n = data.size();
  if (n <= 1) return;
  unsigned N = 1;
  while (N < n) N <<= 1;
  unsigned tile = N < (unsigned)kBsTile ? N : (unsigned)kBsTile;
  float* d = nullptr;
  cudaMalloc(&d, (size_t)N * sizeof(float));
  cudaMemcpy(d, data.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  if (N > n) {
    unsigned pad = N - (unsigned)n;
    bs_pad_kernel<<<(pad + 255) / 256, 256>>>(d, (unsigned)n, N);
  }
  unsigned tiles = N / tile;
  bs_tile_sort_kernel<<<tiles, tile / 2>>>(d, tile);
  unsigned half = N / 2;
  for (unsigned k = tile << 1; k <= N && k != 0; k <<= 1) {
    for (unsigned j = k >> 1; j >= tile; j >>= 1) {
      bs_global_step_kernel<<<(half + 255) / 256, 256>>>(d, half, j, k);
    }
    bs_tile_merge_kernel<<<tiles, tile / 2>>>(d, k, tile);
  }
  cudaMemcpy(data.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d);
}
