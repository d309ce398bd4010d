#include <cuda_runtime.h>
#include <climits>
#include <vector>

// Grid-stride scan with 16-byte loads: even values map to INT_MAX, the block takes the minimum
// with warp shuffles and one atomicMin per block folds it into the result (INT_MAX initially,
// which is also the answer when no element is odd).
__device__ __forceinline__ int odd_or_max(int v) { return (v & 1) ? v : INT_MAX; }

__global__ void smallest_odd_kernel(const int* __restrict__ x, size_t n, int* out) {
  int m = INT_MAX;
  size_t nvec = n / 4;
  const int4* x4 = reinterpret_cast<const int4*>(x);
  size_t stride = (size_t)gridDim.x * blockDim.x;
  size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  for (size_t k = t; k < nvec; k += stride) {
    int4 q = x4[k];
    m = min(m, min(min(odd_or_max(q.x), odd_or_max(q.y)), min(odd_or_max(q.z), odd_or_max(q.w))));
  }
  for (size_t k = nvec * 4 + t; k < n; k += stride) m = min(m, odd_or_max(x[k]));
  for (int off = 16; off > 0; off >>= 1) m = min(m, __shfl_down_sync(0xffffffffu, m, off));
  __shared__ int warp_min[32];
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) warp_min[warp] = m;
  __syncthreads();
  if (warp == 0) {
    m = (lane < (int)(blockDim.x >> 5)) ? warp_min[lane] : INT_MAX;
    for (int off = 16; off > 0; off >>= 1) m = min(m, __shfl_down_sync(0xffffffffu, m, off));
    if (lane == 0 && m != INT_MAX) atomicMin(out, m);
  }
}

int smallestOdd(std::vector<int> const& x) {
  size_t n = x.size();
  const int block = 256;
  size_t want = (n / 4 + block - 1) / block;
  int grid = (int)(want < 1 ? 1 : (want < 1024 ? want : 1024));
  int *dx = nullptr, *dout = nullptr;
  cudaMalloc(&dx, (n ? n : 1) * sizeof(int));
  cudaMalloc(&dout, sizeof(int));
  if (n) cudaMemcpy(dx, x.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  const int init = INT_MAX;
  cudaMemcpy(dout, &init, sizeof(int), cudaMemcpyHostToDevice);
  smallest_odd_kernel<<<grid, block>>>(dx, n, dout);
  int result = INT_MAX;
  cudaMemcpy(&result, dout, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dout);
  return result;
}
