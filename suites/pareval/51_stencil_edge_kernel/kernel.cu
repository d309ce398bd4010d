#include <cstddef>

__constant__ int edgeKernel[3][3] = {{-1, -1, -1}, {-1, 8, -1}, {-1, -1, -1}};

// One thread per pixel (x = column, y = row). The weights are read in
// lock-step by every thread, a constant-memory broadcast; neighbouring
// threads' overlapping pixel loads are served by the read-only cache.
__global__ void convolveKernel(const int *imageIn, int *imageOut, size_t N) {
  const size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  const size_t i = (size_t)blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= N || j >= N) return;
  int sum = 0;
#pragma unroll
  for (int di = -1; di <= 1; ++di) {
    const long long r = (long long)i + di;
    if (r < 0 || r >= (long long)N) continue;
#pragma unroll
    for (int dj = -1; dj <= 1; ++dj) {
      const long long c = (long long)j + dj;
      if (c < 0 || c >= (long long)N) continue;
      sum += edgeKernel[di + 1][dj + 1] * __ldg(&imageIn[(size_t)r * N + (size_t)c]);
    }
  }
  imageOut[i * N + j] = min(max(sum, 0), 255);
}
