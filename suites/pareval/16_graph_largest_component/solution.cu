#include <cuda_runtime.h>
#include <vector>

// Concurrent union-find: one thread per upper-triangle entry (i < j) of the matrix; an edge
// hooks the larger of the two roots under the smaller with atomicCAS (parent indices only
// decrease, so no cycle can form), finds halve paths with atomicCAS. Then every vertex adds
// one to its root's counter, and a max-reduction over the counters gives the answer.
__device__ __forceinline__ int findRoot(int* parent, int x) {
  volatile int* vp = parent;
  while (true) {
    int p = vp[x];
    if (p == x) return x;
    int gp = vp[p];
    if (gp != p) atomicCAS(&parent[x], p, gp);  // path halving
    x = p;
  }
}

__global__ void initParent(int* parent, int* size, int n) {
  for (int v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x) {
    parent[v] = v;
    size[v] = 0;
  }
}

__global__ void uniteEdges(const int* __restrict__ A, int n, int* parent) {
  const int j0 = blockIdx.x * 32, i0 = blockIdx.y * 8;
  if (j0 + 31 <= i0) return;  // block lies on/below the diagonal: nothing with j > i
  const int j = j0 + threadIdx.x, i = i0 + threadIdx.y;
  if (i >= n || j >= n || j <= i) return;
  if (__ldg(&A[(size_t)i * n + j]) == 0) return;
  int a = i, b = j;
  while (true) {
    a = findRoot(parent, a);
    b = findRoot(parent, b);
    if (a == b) return;
    if (a < b) { int t = a; a = b; b = t; }
    if (atomicCAS(&parent[a], a, b) == a) return;  // a was still a root: hooked
  }
}

__global__ void countMembers(int* parent, int n, int* size) {
  for (int v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x)
    atomicAdd(&size[findRoot(parent, v)], 1);
}

__global__ void maxSize(const int* __restrict__ size, int n, int* __restrict__ out) {
  int m = 0;
  for (int v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x)
    m = max(m, size[v]);
  for (int off = 16; off > 0; off >>= 1) m = max(m, __shfl_down_sync(0xffffffffu, m, off));
  __shared__ int warpMax[32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) warpMax[warp] = m;
  __syncthreads();
  if (warp == 0) {
    m = lane < (int)(blockDim.x >> 5) ? warpMax[lane] : 0;
    for (int off = 16; off > 0; off >>= 1) m = max(m, __shfl_down_sync(0xffffffffu, m, off));
    if (lane == 0 && m != 0) atomicMax(out, m);
  }
}

int largestComponent(std::vector<int> const& A, size_t N) {
  const int n = (int)N;
  int *dA = nullptr, *dParent = nullptr, *dSize = nullptr, *dBest = nullptr;
  cudaMalloc(&dA, N * N * sizeof(int));
  cudaMalloc(&dParent, N * sizeof(int));
  cudaMalloc(&dSize, N * sizeof(int));
  cudaMalloc(&dBest, sizeof(int));
  cudaMemcpy(dA, A.data(), N * N * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(dBest, 0, sizeof(int));
  const int vb = (n + 255) / 256;
  initParent<<<vb, 256>>>(dParent, dSize, n);
  dim3 block(32, 8), grid((n + 31) / 32, (n + 7) / 8);
  uniteEdges<<<grid, block>>>(dA, n, dParent);
  countMembers<<<vb, 256>>>(dParent, n, dSize);
  maxSize<<<vb, 256>>>(dSize, n, dBest);
  int result = 0;
  cudaMemcpy(&result, dBest, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dA);
  cudaFree(dParent);
  cudaFree(dSize);
  cudaFree(dBest);
  return result;
}
