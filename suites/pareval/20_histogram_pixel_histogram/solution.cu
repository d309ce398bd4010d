#include <cuda_runtime.h>
#include <array>
#include <cstddef>
#include <vector>

static_assert(sizeof(size_t) == sizeof(unsigned long long), "size_t bins are updated as 64-bit words");

// Privatised histogram: each block counts a grid-stride slice (16-byte loads) into a
// shared-memory histogram with shared atomics, then adds its non-zero bins to the global
// 64-bit bins, one atomic per bin per block.
__global__ void pixel_histogram_kernel(const int* __restrict__ image, size_t n,
                                       unsigned long long* bins) {
  __shared__ unsigned int local[256];
  for (int b = threadIdx.x; b < 256; b += blockDim.x) local[b] = 0u;
  __syncthreads();
  size_t stride = (size_t)gridDim.x * blockDim.x;
  size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  size_t nvec = n / 4;
  const int4* img4 = reinterpret_cast<const int4*>(image);
  for (size_t k = t; k < nvec; k += stride) {
    int4 q = img4[k];
    atomicAdd(&local[q.x & 255], 1u);
    atomicAdd(&local[q.y & 255], 1u);
    atomicAdd(&local[q.z & 255], 1u);
    atomicAdd(&local[q.w & 255], 1u);
  }
  for (size_t k = nvec * 4 + t; k < n; k += stride) atomicAdd(&local[image[k] & 255], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x) {
    unsigned int c = local[b];
    if (c) atomicAdd(&bins[b], (unsigned long long)c);
  }
}

void pixelCounts(std::vector<int> const& image, std::array<size_t, 256> &bins) {
  size_t n = image.size();
  int* dimg = nullptr;
  unsigned long long* dbins = nullptr;
  cudaMalloc(&dimg, (n ? n : 1) * sizeof(int));
  cudaMalloc(&dbins, 256 * sizeof(unsigned long long));
  if (n) cudaMemcpy(dimg, image.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(dbins, 0, 256 * sizeof(unsigned long long));
  const int block = 256;
  size_t want = (n / 4 + block - 1) / block;
  int grid = (int)(want < 1 ? 1 : (want < 512 ? want : 512));
  pixel_histogram_kernel<<<grid, block>>>(dimg, n, dbins);
  cudaMemcpy(bins.data(), dbins, 256 * sizeof(unsigned long long), cudaMemcpyDeviceToHost);
  cudaFree(dimg);
  cudaFree(dbins);
}
