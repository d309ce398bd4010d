#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

// A 32 x 8 block produces a 32 x 32 tile of the next generation. The tile
// plus a one-cell halo (dead outside the board) is staged in shared memory
// with coalesced row loads; each thread forms the three-wide row sums of six
// consecutive rows once and slides a vertical window over them, so each of
// its four outputs costs two additions and a rule lookup.
constexpr int kTW = 32;
constexpr int kTH = 32;
constexpr int kBY = 8;
constexpr int kRows = kTH / kBY;

__global__ void life_tiled(const int* __restrict__ in, int* __restrict__ out, size_t N) {
  __shared__ int tile[kTH + 2][kTW + 2];
  const long long r0 = (long long)blockIdx.y * kTH - 1;
  const long long c0 = (long long)blockIdx.x * kTW - 1;
  const int tid = threadIdx.y * kTW + threadIdx.x;
  for (int t = tid; t < (kTH + 2) * (kTW + 2); t += kTW * kBY) {
    int ty = t / (kTW + 2), tx = t % (kTW + 2);
    long long r = r0 + ty, c = c0 + tx;
    int v = 0;
    if (r >= 0 && c >= 0 && r < (long long)N && c < (long long)N) v = in[(size_t)r * N + (size_t)c];
    tile[ty][tx] = v;
  }
  __syncthreads();

  const int tx = threadIdx.x;
  const int ly = threadIdx.y * kRows;
  const size_t j = (size_t)blockIdx.x * kTW + tx;
  int rowsum[kRows + 2], centre[kRows + 2];
#pragma unroll
  for (int a = 0; a < kRows + 2; ++a) {
    int l = tile[ly + a][tx], m = tile[ly + a][tx + 1], r = tile[ly + a][tx + 2];
    rowsum[a] = l + m + r;
    centre[a] = m;
  }
#pragma unroll
  for (int k = 0; k < kRows; ++k) {
    const size_t i = (size_t)blockIdx.y * kTH + ly + k;
    const int alive = centre[k + 1];
    const int live = rowsum[k] + rowsum[k + 1] + rowsum[k + 2] - alive;
    const int next = (live == 3 || (alive && live == 2)) ? 1 : 0;
    if (i < N && j < N) out[i * N + j] = next;
  }
}

void gameOfLife(std::vector<int> const& input, std::vector<int> &output, size_t N) {
  if (N == 0) return;
  const size_t bytes = N * N * sizeof(int);
  int *din = nullptr, *dout = nullptr;
  cudaMalloc(&din, bytes);
  cudaMalloc(&dout, bytes);
  cudaMemcpy(din, input.data(), bytes, cudaMemcpyHostToDevice);
  dim3 block(kTW, kBY);
  dim3 grid((unsigned)((N + kTW - 1) / kTW), (unsigned)((N + kTH - 1) / kTH));
  life_tiled<<<grid, block>>>(din, dout, N);
  cudaMemcpy(output.data(), dout, bytes, cudaMemcpyDeviceToHost);
  cudaFree(din);
  cudaFree(dout);
}
