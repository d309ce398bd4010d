#include <cstddef>

// One thread per cell (x = column, y = row); the overlapping neighbour loads
// of adjacent threads are served by the read-only cache.
__global__ void gameOfLife(const int *input, int *output, size_t N) {
  const size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  const size_t i = (size_t)blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= N || j >= N) return;
  int live = 0;
#pragma unroll
  for (int di = -1; di <= 1; ++di) {
    const long long r = (long long)i + di;
    if (r < 0 || r >= (long long)N) continue;
#pragma unroll
    for (int dj = -1; dj <= 1; ++dj) {
      if (di == 0 && dj == 0) continue;
      const long long c = (long long)j + dj;
      if (c < 0 || c >= (long long)N) continue;
      live += __ldg(&input[(size_t)r * N + (size_t)c]);
    }
  }
  const int alive = __ldg(&input[i * N + j]);
  output[i * N + j] = (live == 3 || (alive && live == 2)) ? 1 : 0;
}
