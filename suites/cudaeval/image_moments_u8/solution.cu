#include <cuda_runtime.h>
#include <cstdint>

// Step 1 (thread_mapping): a block takes a row and its threads take the
// row's pixels (coalesced byte loads); x and y come from the loop indices,
// so no division by the width is needed. Per row a thread keeps the sums of
// v, x v and x^2 v and folds y in afterwards (y v = y * sum v, ...).
// Step 2 (grid_stride_loop): the grid is capped at a few blocks per SM and
// strides over the rows, so each thread accumulates many pixels in 64-bit
// registers before any reduction.
// Step 3 (warp_shuffle_reduction): the six 64-bit sums are folded across a
// warp with __shfl_down_sync.
// Step 4 (block_tree_reduction): warp results meet in shared memory and the
// first warp reduces them.
// Step 5 (atomic_operations): one 64-bit atomicAdd per moment and block
// accumulates the block results (two's-complement addition, so unsigned
// 64-bit atomics give the exact signed sum).
constexpr int kMomBlock = 256;
constexpr int kMomWarps = kMomBlock / 32;

__device__ __forceinline__ long long mom_warp_sum(long long v) {
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  return v;
}

__global__ void image_moments_kernel(const uint8_t* __restrict__ img, int w, int h,
                                     unsigned long long* __restrict__ m) {
  long long acc[6] = {0, 0, 0, 0, 0, 0};
  for (int y = blockIdx.x; y < h; y += gridDim.x) {
    const uint8_t* row = img + (size_t)y * w;
    long long s0 = 0, s1 = 0, s2 = 0;  // sum v, sum x v, sum x^2 v over this thread's pixels of the row
    for (int x = threadIdx.x; x < w; x += kMomBlock) {
      long long v = row[x];
      long long xv = x * v;
      s0 += v;
      s1 += xv;
      s2 += x * xv;
    }
    long long yy = y;
    acc[0] += s0;
    acc[1] += s1;
    acc[2] += yy * s0;
    acc[3] += yy * s1;
    acc[4] += s2;
    acc[5] += yy * yy * s0;
  }
  __shared__ long long partial[6][kMomWarps];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
#pragma unroll
  for (int k = 0; k < 6; ++k) {
    long long s = mom_warp_sum(acc[k]);
    if (lane == 0) partial[k][warp] = s;
  }
  __syncthreads();
  if (warp == 0) {
#pragma unroll
    for (int k = 0; k < 6; ++k) {
      long long s = lane < kMomWarps ? partial[k][lane] : 0;
      s = mom_warp_sum(s);
      if (lane == 0) atomicAdd(&m[k], (unsigned long long)s);
    }
  }
}

void imageMomentsU8(const uint8_t* img, int w, int h, int64_t* m) {
  unsigned long long* dm = nullptr;
  cudaMalloc(&dm, 6 * sizeof(unsigned long long));
  cudaMemset(dm, 0, 6 * sizeof(unsigned long long));
  long long total = (long long)w * h;
  uint8_t* dimg = nullptr;
  if (total > 0) {
    cudaMalloc(&dimg, (size_t)total);
    cudaMemcpy(dimg, img, (size_t)total, cudaMemcpyHostToDevice);
    int device = 0, sms = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (sms <= 0) sms = 80;
    int grid = h < sms * 4 ? h : sms * 4;
    image_moments_kernel<<<grid, kMomBlock>>>(dimg, w, h, dm);
  }
  cudaMemcpy(m, dm, 6 * sizeof(int64_t), cudaMemcpyDeviceToHost);
  cudaFree(dimg);
  cudaFree(dm);
}
