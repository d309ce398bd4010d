#include <cuda_runtime.h>
#include <vector>

#define MOD 1000000007

// For coin c the amounts a = r, r + c, r + 2c, ... form an independent chain for
// each residue r < c; one thread walks each chain in increasing order, exactly as
// the serial loop updates it.
__global__ void coin_chains(int amount, int c, int* ways) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= c || r > amount) return;
  int run = ways[r];
  for (int a = r + c; a <= amount; a += c) {
    int v = ways[a] + run;
    if (v >= MOD) v -= MOD;
    ways[a] = v;
    run = v;
  }
}

int coin_change_count(int amount, const std::vector<int>& coins) {
  if (amount < 0) return 0;
  int* d_ways = nullptr;
  cudaMalloc(&d_ways, (size_t)(amount + 1) * sizeof(int));
  cudaMemset(d_ways, 0, (size_t)(amount + 1) * sizeof(int));
  int one = 1;
  cudaMemcpy(d_ways, &one, sizeof(int), cudaMemcpyHostToDevice);
  for (int c : coins) {
    if (c <= 0 || c > amount) continue;
    coin_chains<<<(c + 255) / 256, 256>>>(amount, c, d_ways);
  }
  int result = 0;
  cudaMemcpy(&result, d_ways + amount, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d_ways);
  return result;
}
