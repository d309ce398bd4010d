#include <cuda_runtime.h>
#include <cstdint>

constexpr int kBlock = 256;
constexpr int kWarps = kBlock / 32;
constexpr int kMaxBlocks = 1024;

__device__ __forceinline__ long long warp_sum(long long v) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  return v;
}

__device__ __forceinline__ int absdiff(int x, int y) {
  int d = x - y;
  return d < 0 ? -d : d;
}

// The grid-stride loop walks int4 groups of both arrays (cudaMalloc pointers
// are 256-byte aligned); the n % 4 leftover elements go to the first threads.
__global__ void l1_vec_kernel(int n, const int* a, const int* b, unsigned long long* total) {
  __shared__ long long warp_tot[kWarps];
  int n4 = n >> 2;
  const int4* a4 = reinterpret_cast<const int4*>(a);
  const int4* b4 = reinterpret_cast<const int4*>(b);
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = gridDim.x * blockDim.x;
  long long v = 0;
  for (int g = gid; g < n4; g += stride) {
    int4 x = a4[g];
    int4 y = b4[g];
    v += absdiff(x.x, y.x) + absdiff(x.y, y.y) + absdiff(x.z, y.z) + absdiff(x.w, y.w);
  }
  int tail = (n4 << 2) + gid;
  if (tail < n) v += absdiff(a[tail], b[tail]);
  v = warp_sum(v);
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) warp_tot[warp] = v;
  __syncthreads();
  if (warp == 0) {
    long long w = lane < kWarps ? warp_tot[lane] : 0;
    w = warp_sum(w);
    if (lane == 0 && w != 0) atomicAdd(total, static_cast<unsigned long long>(w));
  }
}

int64_t l1Distance(int n, const int* a, const int* b) {
  if (n <= 0) return 0;
  size_t bytes = static_cast<size_t>(n) * sizeof(int);
  int *da = nullptr, *db = nullptr;
  unsigned long long* dtotal = nullptr;
  cudaMalloc(&da, bytes);
  cudaMalloc(&db, bytes);
  cudaMalloc(&dtotal, sizeof(unsigned long long));
  cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice);
  cudaMemset(dtotal, 0, sizeof(unsigned long long));
  int work = (n + 3) / 4;
  int blocks = (work + kBlock - 1) / kBlock;
  if (blocks > kMaxBlocks) blocks = kMaxBlocks;
  l1_vec_kernel<<<blocks, kBlock>>>(n, da, db, dtotal);
  unsigned long long total = 0;
  cudaMemcpy(&total, dtotal, sizeof(total), cudaMemcpyDeviceToHost);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dtotal);
  return static_cast<int64_t>(total);
}
