#include <cstddef>

// Single launch on an N x N grid. Every thread with an edge (i, j), i < j, joins the two
// vertices in a concurrent union-find (atomicCAS hooks the larger root under the smaller, so
// parent indices only decrease and no cycle forms; finds halve paths with atomicCAS). The
// last block to finish (threadfence + ticket counter) counts the roots and resets the scratch
// for the next launch. Scratch lives in __device__ arrays: g_link[v] == 0 means "v is a
// root", otherwise it holds parent + 1, so the zero-initialised array needs no set-up pass.
// Limit: N <= kMaxN.
constexpr int kMaxN = 16384;
__device__ int g_link[kMaxN];
__device__ unsigned int g_blocksDone;

__device__ int findRoot(int x) {
  volatile int* link = g_link;
  while (true) {
    int p = link[x];
    if (p == 0) return x;
    int gp = link[p - 1];
    if (gp != 0) atomicCAS(&g_link[x], p, gp);  // path halving
    x = p - 1;
  }
}

__device__ void unite(int a, int b) {
  while (true) {
    a = findRoot(a);
    b = findRoot(b);
    if (a == b) return;
    if (a < b) { int t = a; a = b; b = t; }
    if (atomicCAS(&g_link[a], 0, b + 1) == 0) return;  // a was still a root: hooked
  }
}

__global__ void componentCount(const int *A, size_t N, int *numComponents) {
  const size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  const size_t i = (size_t)blockIdx.y * blockDim.y + threadIdx.y;
  if (N <= (size_t)kMaxN && i < N && j < N && j > i && A[i * N + j] != 0) unite((int)i, (int)j);

  __shared__ bool isLast;
  __threadfence();
  __syncthreads();
  const unsigned tid = threadIdx.y * blockDim.x + threadIdx.x;
  if (tid == 0) isLast = atomicAdd(&g_blocksDone, 1u) == gridDim.x * gridDim.y - 1;
  __syncthreads();
  if (!isLast) return;

  // Last block: every union is done. Count the roots while clearing the scratch.
  const unsigned nthreads = blockDim.x * blockDim.y;
  const int n = N <= (size_t)kMaxN ? (int)N : 0;
  int c = 0;
  for (int v = tid; v < n; v += nthreads) c += (atomicExch(&g_link[v], 0) == 0);
  for (int off = 16; off > 0; off >>= 1) c += __shfl_down_sync(0xffffffffu, c, off);
  __shared__ int warpSum[32];
  const unsigned lane = tid & 31, warp = tid >> 5;
  if (lane == 0) warpSum[warp] = c;
  __syncthreads();
  if (warp == 0) {
    c = lane < ((nthreads + 31) >> 5) ? warpSum[lane] : 0;
    for (int off = 16; off > 0; off >>= 1) c += __shfl_down_sync(0xffffffffu, c, off);
    if (lane == 0) {
      *numComponents = c;
      atomicExch(&g_blocksDone, 0u);
    }
  }
}
