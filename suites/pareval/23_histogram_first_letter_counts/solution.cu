#include <cuda_runtime.h>
#include <array>
#include <cstddef>
#include <string>
#include <vector>

static_assert(sizeof(size_t) == sizeof(unsigned long long), "size_t bins are updated as 64-bit words");

// Only the first character of each string matters, so the host ships one byte per string
// (0 for an empty string) instead of the strings themselves. On the device each block counts a
// grid-stride slice (16-byte loads) into a shared 26-bin histogram, then adds its non-zero bins
// to the global 64-bit bins.
__device__ __forceinline__ void count_letter(unsigned int* local, unsigned int c) {
  unsigned int k = c - 'a';
  if (k < 26u) atomicAdd(&local[k], 1u);
}

__global__ void first_letter_kernel(const unsigned char* __restrict__ first, size_t n,
                                    unsigned long long* bins) {
  __shared__ unsigned int local[26];
  for (int b = threadIdx.x; b < 26; b += blockDim.x) local[b] = 0u;
  __syncthreads();
  size_t stride = (size_t)gridDim.x * blockDim.x;
  size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  size_t nvec = n / 16;
  const uint4* f16 = reinterpret_cast<const uint4*>(first);
  for (size_t k = t; k < nvec; k += stride) {
    uint4 q = f16[k];
    unsigned int w[4] = {q.x, q.y, q.z, q.w};
#pragma unroll
    for (int j = 0; j < 4; ++j) {
#pragma unroll
      for (int b = 0; b < 4; ++b) count_letter(local, (w[j] >> (8 * b)) & 0xffu);
    }
  }
  for (size_t k = nvec * 16 + t; k < n; k += stride) count_letter(local, first[k]);
  __syncthreads();
  for (int b = threadIdx.x; b < 26; b += blockDim.x) {
    unsigned int c = local[b];
    if (c) atomicAdd(&bins[b], (unsigned long long)c);
  }
}

void firstLetterCounts(std::vector<std::string> const& s, std::array<size_t, 26> &bins) {
  size_t n = s.size();
  std::vector<unsigned char> first(n ? n : 1, 0);
  for (size_t i = 0; i < n; ++i) first[i] = s[i].empty() ? 0 : static_cast<unsigned char>(s[i][0]);
  unsigned char* dfirst = nullptr;
  unsigned long long* dbins = nullptr;
  cudaMalloc(&dfirst, first.size());
  cudaMalloc(&dbins, 26 * sizeof(unsigned long long));
  cudaMemcpy(dfirst, first.data(), first.size(), cudaMemcpyHostToDevice);
  cudaMemset(dbins, 0, 26 * sizeof(unsigned long long));
  const int block = 256;
  size_t want = (n / 16 + block - 1) / block;
  int grid = (int)(want < 1 ? 1 : (want < 256 ? want : 256));
  first_letter_kernel<<<grid, block>>>(dfirst, n, dbins);
  cudaMemcpy(bins.data(), dbins, 26 * sizeof(unsigned long long), cudaMemcpyDeviceToHost);
  cudaFree(dfirst);
  cudaFree(dbins);
}
