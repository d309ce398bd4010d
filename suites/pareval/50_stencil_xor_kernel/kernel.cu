#include <cstddef>

// One thread per cell: x indexes the column (so a warp reads a contiguous row
// segment), y the row. The eight neighbour loads of adjacent threads overlap,
// so they are served by the read-only/L1 cache after the first touch.
__global__ void cellsXOR(const int *input, int *output, size_t N) {
  const size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  const size_t i = (size_t)blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= N || j >= N) return;
  const int* __restrict__ in = input;
  int count = 0;
#pragma unroll
  for (int di = -1; di <= 1; ++di) {
    const long long r = (long long)i + di;
    if (r < 0 || r >= (long long)N) continue;
#pragma unroll
    for (int dj = -1; dj <= 1; ++dj) {
      if (di == 0 && dj == 0) continue;
      const long long c = (long long)j + dj;
      if (c < 0 || c >= (long long)N) continue;
      count += (__ldg(&in[(size_t)r * N + (size_t)c]) == 1);
    }
  }
  output[i * N + j] = (count == 1) ? 1 : 0;
}
