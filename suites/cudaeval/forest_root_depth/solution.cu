#include <cuda_runtime.h>
#include <cstddef>

// Step 1 (thread_mapping): one thread per vertex sets up its parent and the
// depth of that one step.
__global__ void init_kernel(int n, const int* __restrict__ hop, int* __restrict__ parent, int* __restrict__ depth) {
  int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    int h = hop[i];
    bool is_root = h <= 0 || h > i;
    parent[i] = is_root ? i : i - h;
    depth[i] = is_root ? 0 : 1;
  }
}

// Step 2 (algorithmic_restructuring): pointer jumping. A vertex whose parent
// is not a root jumps to its grandparent and adds its parent's depth; after k
// rounds every vertex has climbed min(2^k, depth) steps.
// Step 3 (double_buffering): the round reads (pin, din) and writes
// (pout, dout), so a thread never reads a parent another thread is updating.
// Step 4 (early_exit): *changed is raised when any vertex jumped; the host
// stops after the first round without a jump.
__global__ void jump_kernel(int n, const int* __restrict__ pin, const int* __restrict__ din, int* __restrict__ pout,
                            int* __restrict__ dout, int* __restrict__ changed) {
  int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    int p = pin[i];
    int gp = pin[p];
    if (gp != p) {
      pout[i] = gp;
      dout[i] = din[i] + din[p];
      *changed = 1;
    } else {
      pout[i] = p;
      dout[i] = din[i];
    }
  }
}

void forestRootDepth(int n, const int* hop, int* root, int* depth) {
  if (n <= 0) return;
  size_t b = (size_t)n * sizeof(int);
  int *dhop = nullptr, *p[2] = {nullptr, nullptr}, *d[2] = {nullptr, nullptr}, *dchanged = nullptr;
  cudaMalloc(&dhop, b);
  cudaMalloc(&p[0], b);
  cudaMalloc(&p[1], b);
  cudaMalloc(&d[0], b);
  cudaMalloc(&d[1], b);
  cudaMalloc(&dchanged, sizeof(int));
  cudaMemcpy(dhop, hop, b, cudaMemcpyHostToDevice);
  int device = 0, sms = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  if (sms <= 0) sms = 80;
  const int block = 256;
  int needed = (n + block - 1) / block;
  int grid = needed < sms * 8 ? needed : sms * 8;
  init_kernel<<<grid, block>>>(n, dhop, p[0], d[0]);
  int cur = 0;
  // At most ceil(log2 n) + 1 rounds are ever needed; the flag usually stops
  // the loop earlier (depths are far below n).
  for (int round = 0; round < 33; ++round) {
    int h = 0;
    cudaMemset(dchanged, 0, sizeof(int));
    jump_kernel<<<grid, block>>>(n, p[cur], d[cur], p[cur ^ 1], d[cur ^ 1], dchanged);
    cur ^= 1;
    cudaMemcpy(&h, dchanged, sizeof(int), cudaMemcpyDeviceToHost);
    if (h == 0) break;
  }
  cudaMemcpy(root, p[cur], b, cudaMemcpyDeviceToHost);
  cudaMemcpy(depth, d[cur], b, cudaMemcpyDeviceToHost);
  cudaFree(dhop);
  cudaFree(p[0]);
  cudaFree(p[1]);
  cudaFree(d[0]);
  cudaFree(d[1]);
  cudaFree(dchanged);
}
