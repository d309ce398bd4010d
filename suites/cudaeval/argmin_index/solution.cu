#include <cuda_runtime.h>
#include <climits>
#include <vector>

// Trajectory:
// 1 thread_mapping: threads inspect elements in parallel, each tracking a
//   (value, index) candidate.
// 2 grid_stride_loop: a bounded grid strides over the array; since each thread
//   visits its indices in increasing order, a strict '<' keeps the first
//   occurrence of its minimum.
// 3 warp_shuffle_reduction: candidates are merged inside each warp with
//   __shfl_down_sync; the merge takes the smaller value and, on a tie, the
//   smaller index, so the order of merging does not matter.
// 4 block_tree_reduction: the warp winners meet in shared memory and are merged
//   in halving steps; one candidate per block goes to a partials array that a
//   second one-block kernel reduces the same way (deterministic, no atomics).
constexpr int kAmThreads = 256;

__device__ __forceinline__ void am_merge(int& v, int& i, int ov, int oi) {
  if (ov < v || (ov == v && oi < i)) {
    v = ov;
    i = oi;
  }
}

__device__ void am_block_reduce(int v, int i, int* sv, int* si, int* out_v, int* out_i) {
  for (int off = 16; off > 0; off >>= 1) {
    int ov = __shfl_down_sync(0xffffffffu, v, off);
    int oi = __shfl_down_sync(0xffffffffu, i, off);
    am_merge(v, i, ov, oi);
  }
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) {
    sv[warp] = v;
    si[warp] = i;
  }
  __syncthreads();
  for (int s = (kAmThreads / 32) / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) {
      int a = threadIdx.x;
      int vv = sv[a], ii = si[a];
      am_merge(vv, ii, sv[a + s], si[a + s]);
      sv[a] = vv;
      si[a] = ii;
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    *out_v = sv[0];
    *out_i = si[0];
  }
}

__global__ void argmin_partial_kernel(const int* __restrict__ x, int n, int* __restrict__ part_v,
                                      int* __restrict__ part_i) {
  __shared__ int sv[kAmThreads / 32], si[kAmThreads / 32];
  int v = INT_MAX, i = INT_MAX;  // "no candidate" loses every merge
  for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < n; k += gridDim.x * blockDim.x) {
    int xv = x[k];
    if (xv < v) {
      v = xv;
      i = k;
    }
  }
  am_block_reduce(v, i, sv, si, &part_v[blockIdx.x], &part_i[blockIdx.x]);
}

__global__ void argmin_final_kernel(const int* __restrict__ part_v, const int* __restrict__ part_i, int count,
                                    int* __restrict__ result) {
  __shared__ int sv[kAmThreads / 32], si[kAmThreads / 32];
  __shared__ int res_v;
  int v = INT_MAX, i = INT_MAX;
  for (int k = threadIdx.x; k < count; k += blockDim.x) am_merge(v, i, part_v[k], part_i[k]);
  am_block_reduce(v, i, sv, si, &res_v, result);
}

int argminIndex(const std::vector<int>& values) {
  int n = (int)values.size();
  if (n == 0) return -1;
  int device = 0, sms = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  if (sms <= 0) sms = 80;
  int needed = (n + kAmThreads - 1) / kAmThreads;
  int grid = needed < sms * 8 ? needed : sms * 8;
  int *dx = nullptr, *dpv = nullptr, *dpi = nullptr, *dres = nullptr;
  cudaMalloc(&dx, (size_t)n * sizeof(int));
  cudaMalloc(&dpv, (size_t)grid * sizeof(int));
  cudaMalloc(&dpi, (size_t)grid * sizeof(int));
  cudaMalloc(&dres, sizeof(int));
  cudaMemcpy(dx, values.data(), (size_t)n * sizeof(int), cudaMemcpyHostToDevice);
  argmin_partial_kernel<<<grid, kAmThreads>>>(dx, n, dpv, dpi);
  argmin_final_kernel<<<1, kAmThreads>>>(dpv, dpi, grid, dres);
  int result = -1;
  cudaMemcpy(&result, dres, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dpv);
  cudaFree(dpi);
  cudaFree(dres);
  return result;
}
