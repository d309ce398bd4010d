#include <cuda_runtime.h>
#include <vector>

#define MOD 1000000007
#define MAX_SEGS 256

// For coin c, view ways[0..amount] as rows of c amounts: each column (a residue
// class) must be replaced by its inclusive prefix sum (mod p). Columns are split
// into segments of S rows and scanned in three phases, so the parallelism is
// c x (#segments) threads whatever the coin value:
//   A: each (segment, column) thread sums its S entries,
//   B: each column turns its segment sums into exclusive offsets,
//   C: each (segment, column) thread rescans its entries from its offset.
__global__ void coin_seg_sums(int amount, int c, int S, int G, const int* __restrict__ ways, int* __restrict__ seg) {
  long long id = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (id >= (long long)G * c) return;
  int g = (int)(id / c), r = (int)(id % c);
  int sum = 0;
  int t = 0;
  // four independent loads in flight before they are accumulated
  for (; t + 3 < S; t += 4) {
    long long a0 = ((long long)g * S + t) * c + r;
    int v[4];
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      long long a = a0 + (long long)q * c;
      v[q] = a <= amount ? ways[a] : 0;
    }
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      sum += v[q];
      if (sum >= MOD) sum -= MOD;
    }
  }
  for (; t < S; ++t) {
    long long a = ((long long)g * S + t) * c + r;
    if (a > amount) break;
    sum += ways[a];
    if (sum >= MOD) sum -= MOD;
  }
  seg[(size_t)g * c + r] = sum;
}

__global__ void coin_seg_offsets(int c, int G, int* seg) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= c) return;
  int run = 0;
  for (int g = 0; g < G; ++g) {
    int v = seg[(size_t)g * c + r];
    seg[(size_t)g * c + r] = run;
    run += v;
    if (run >= MOD) run -= MOD;
  }
}

__global__ void coin_seg_apply(int amount, int c, int S, int G, int* __restrict__ ways, const int* __restrict__ seg) {
  long long id = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (id >= (long long)G * c) return;
  int g = (int)(id / c), r = (int)(id % c);
  int run = seg[(size_t)g * c + r];
  int t = 0;
  // load four chain entries first (each is read before this thread overwrites it,
  // and no other thread touches this chain segment), then scan them in order
  for (; t + 3 < S; t += 4) {
    long long a0 = ((long long)g * S + t) * c + r;
    int v[4];
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      long long a = a0 + (long long)q * c;
      v[q] = a <= amount ? ways[a] : 0;
    }
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      long long a = a0 + (long long)q * c;
      run += v[q];
      if (run >= MOD) run -= MOD;
      if (a <= amount) ways[a] = run;
    }
  }
  for (; t < S; ++t) {
    long long a = ((long long)g * S + t) * c + r;
    if (a > amount) break;
    run += ways[a];
    if (run >= MOD) run -= MOD;
    ways[a] = run;
  }
}

// All 3 x k launches are captured once into a CUDA graph and submitted together.
int coin_change_count(int amount, const std::vector<int>& coins) {
  if (amount < 0) return 0;
  int maxc = 1;
  for (int c : coins)
    if (c <= amount && c > maxc) maxc = c;
  int *d_ways = nullptr, *d_seg = nullptr;
  cudaMalloc(&d_ways, (size_t)(amount + 1) * sizeof(int));
  cudaMalloc(&d_seg, (size_t)MAX_SEGS * maxc * sizeof(int));
  cudaMemset(d_ways, 0, (size_t)(amount + 1) * sizeof(int));
  int one = 1;
  cudaMemcpy(d_ways, &one, sizeof(int), cudaMemcpyHostToDevice);
  cudaStream_t stream;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
  for (int c : coins) {
    if (c <= 0 || c > amount) continue;
    long long R = amount / c + 1;                           // rows of the c-wide view
    int S = (int)((R + MAX_SEGS - 1) / MAX_SEGS);           // rows per segment
    if (S < 8) S = 8;
    int G = (int)((R + S - 1) / S);                         // segments per column (<= 256)
    long long threads = (long long)G * c;
    unsigned blocks = (unsigned)((threads + 255) / 256);
    coin_seg_sums<<<blocks, 256, 0, stream>>>(amount, c, S, G, d_ways, d_seg);
    coin_seg_offsets<<<(c + 255) / 256, 256, 0, stream>>>(c, G, d_seg);
    coin_seg_apply<<<blocks, 256, 0, stream>>>(amount, c, S, G, d_ways, d_seg);
  }
  cudaStreamEndCapture(stream, &graph);
  cudaGraphInstantiate(&exec, graph, 0);
  cudaGraphLaunch(exec, stream);
  cudaStreamSynchronize(stream);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(stream);
  int result = 0;
  cudaMemcpy(&result, d_ways + amount, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d_ways);
  cudaFree(d_seg);
  return result;
}
