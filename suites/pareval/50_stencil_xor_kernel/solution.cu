#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

// A 32 x 8 block produces a 32 x 32 output tile. The tile plus a one-cell halo
// (34 x 34, zero outside the grid) is staged in shared memory once with
// coalesced row loads, each cell reduced to a 0/1 flag (is it a 1?). Every thread
// then walks four vertically adjacent outputs, reusing the rows it has already
// read (a sliding 3 x 3 window in registers).
constexpr int kTW = 32;
constexpr int kTH = 32;
constexpr int kBY = 8;
constexpr int kRows = kTH / kBY;

__global__ void cells_xor_tiled(const int* __restrict__ in, int* __restrict__ out, size_t N) {
  __shared__ int tile[kTH + 2][kTW + 2];
  const long long r0 = (long long)blockIdx.y * kTH - 1;
  const long long c0 = (long long)blockIdx.x * kTW - 1;
  const int tid = threadIdx.y * kTW + threadIdx.x;
  for (int t = tid; t < (kTH + 2) * (kTW + 2); t += kTW * kBY) {
    int ty = t / (kTW + 2), tx = t % (kTW + 2);
    long long r = r0 + ty, c = c0 + tx;
    int v = 0;
    if (r >= 0 && c >= 0 && r < (long long)N && c < (long long)N) v = (in[(size_t)r * N + (size_t)c] == 1);
    tile[ty][tx] = v;
  }
  __syncthreads();

  const int tx = threadIdx.x;
  const int ly = threadIdx.y * kRows;  // first tile-local output row of this thread
  const size_t j = (size_t)blockIdx.x * kTW + tx;
  // Row sums of three horizontally adjacent cells, and the centre cells.
  int rowsum[kRows + 2], centre[kRows + 2];
#pragma unroll
  for (int a = 0; a < kRows + 2; ++a) {
    int l = tile[ly + a][tx], m = tile[ly + a][tx + 1], r = tile[ly + a][tx + 2];
    rowsum[a] = l + m + r;
    centre[a] = m;
  }
#pragma unroll
  for (int k = 0; k < kRows; ++k) {
    size_t i = (size_t)blockIdx.y * kTH + ly + k;
    int count = rowsum[k] + rowsum[k + 1] + rowsum[k + 2] - centre[k + 1];
    if (i < N && j < N) out[i * N + j] = (count == 1) ? 1 : 0;
  }
}

void cellsXOR(std::vector<int> const& input, std::vector<int> &output, size_t N) {
  if (N == 0) return;
  size_t bytes = N * N * sizeof(int);
  int *din = nullptr, *dout = nullptr;
  cudaMalloc(&din, bytes);
  cudaMalloc(&dout, bytes);
  cudaMemcpy(din, input.data(), bytes, cudaMemcpyHostToDevice);
  dim3 block(kTW, kBY);
  dim3 grid((unsigned)((N + kTW - 1) / kTW), (unsigned)((N + kTH - 1) / kTH));
  cells_xor_tiled<<<grid, block>>>(din, dout, N);
  cudaMemcpy(output.data(), dout, bytes, cudaMemcpyDeviceToHost);
  cudaFree(din);
  cudaFree(dout);
}
