#include <cuda_runtime.h>
#include <cstdint>

// Step 1 (thread_mapping): lags go to threads (blockIdx.y picks a group of
// kAcGroup lags), samples to blocks (chunks of kAcChunk).
// Step 2 (grid_stride_loop): a grid of a few blocks per SM strides over the
// chunks, so each thread accumulates many chunks before its atomics.
// Step 3 (shared_memory_tiling): a block stages its chunk x[c0 .. c0+S) and
// the lagged segment x[c0+g .. c0+g+S+G-1) in shared memory; every sample is
// then used by all the group's lags from on-chip storage. Samples past n are
// staged as 0, which removes the i + k < n test from the inner loop.
// Step 4 (register_tiling): each thread owns kAcPer lags with their 64-bit
// sums in registers and reuses the broadcast x[i] for all of them.
// Step 5 (bank_conflict_avoidance): the lags of a thread are interleaved
// (t, t + B, ...) rather than consecutive (4t, 4t + 1, ...), so at each step
// the 32 lanes of a warp read 32 consecutive shared words (conflict-free)
// instead of words kAcPer apart (a kAcPer-way conflict).
// Step 6 (vectorized_memory_access): staging reads 8 samples per 16-byte
// load where the 8 lie inside the signal (segments start 16-byte aligned).
// Step 7 (loop_unrolling): the sample loop is unrolled by 4 and the lag loop
// fully, giving 4 x kAcPer independent multiply-adds per iteration.
// Step 8 (atomic_operations): per-thread sums are added to r with one 64-bit
// atomicAdd per lag and block (r is zeroed first; two's complement makes the
// unsigned atomic exact for signed sums).
constexpr int kAcBlock = 256;
constexpr int kAcPer = 2;
constexpr int kAcGroup = kAcBlock * kAcPer;  // lags per blockIdx.y
constexpr int kAcChunk = 1024;               // samples per chunk

__device__ __forceinline__ void ac_stage(const int16_t* __restrict__ x, int n, long long start, int count,
                                         int* __restrict__ dst) {
  // dst[t] = x[start + t] (0 outside [0, n)); start is a multiple of 8.
  const int groups = count / 8;
  for (int v = threadIdx.x; v < groups; v += kAcBlock) {
    long long i0 = start + 8LL * v;
    if (i0 + 8 <= n) {
      int4 w = *reinterpret_cast<const int4*>(x + i0);
      int words[4] = {w.x, w.y, w.z, w.w};
#pragma unroll
      for (int q = 0; q < 4; ++q) {
        dst[8 * v + 2 * q] = (int)(int16_t)(words[q] & 0xffff);
        dst[8 * v + 2 * q + 1] = words[q] >> 16;
      }
    } else {
#pragma unroll
      for (int q = 0; q < 8; ++q) dst[8 * v + q] = (i0 + q < n) ? (int)x[i0 + q] : 0;
    }
  }
  for (int t = groups * 8 + threadIdx.x; t < count; t += kAcBlock) {
    long long i = start + t;
    dst[t] = i < n ? (int)x[i] : 0;
  }
}

__global__ void autocorr_kernel(const int16_t* __restrict__ x, int n, int K, unsigned long long* __restrict__ r) {
  __shared__ int xa[kAcChunk];
  __shared__ int xb[kAcChunk + kAcGroup];
  const int g0 = blockIdx.y * kAcGroup;  // first lag of the group
  long long acc[kAcPer];
#pragma unroll
  for (int j = 0; j < kAcPer; ++j) acc[j] = 0;
  const long long chunks = ((long long)n + kAcChunk - 1) / kAcChunk;
  for (long long c = blockIdx.x; c < chunks; c += gridDim.x) {
    const long long c0 = c * kAcChunk;
    __syncthreads();  // the previous chunk's tiles are no longer read
    ac_stage(x, n, c0, kAcChunk, xa);
    ac_stage(x, n, c0 + g0, kAcChunk + kAcGroup, xb);
    __syncthreads();
#pragma unroll 4
    for (int i = 0; i < kAcChunk; ++i) {
      const int a = xa[i];
#pragma unroll
      for (int j = 0; j < kAcPer; ++j) acc[j] += a * xb[i + threadIdx.x + j * kAcBlock];
    }
  }
#pragma unroll
  for (int j = 0; j < kAcPer; ++j) {
    int k = g0 + threadIdx.x + j * kAcBlock;
    if (k < K && acc[j] != 0) atomicAdd(&r[k], (unsigned long long)acc[j]);
  }
}

void autocorrPcm16(const int16_t* x, int n, int64_t* r, int K) {
  if (K <= 0) return;
  unsigned long long* dr = nullptr;
  cudaMalloc(&dr, (size_t)K * sizeof(unsigned long long));
  cudaMemset(dr, 0, (size_t)K * sizeof(unsigned long long));
  int16_t* dx = nullptr;
  if (n > 0) {
    cudaMalloc(&dx, (size_t)n * sizeof(int16_t));
    cudaMemcpy(dx, x, (size_t)n * sizeof(int16_t), cudaMemcpyHostToDevice);
    int device = 0, sms = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (sms <= 0) sms = 80;
    int kmax = K < n ? K : n;  // lags >= n are 0 and stay at their zeroed value
    int groups = (kmax + kAcGroup - 1) / kAcGroup;
    long long chunks = ((long long)n + kAcChunk - 1) / kAcChunk;
    long long want = (long long)sms * 4 / groups;
    if (want < 1) want = 1;
    int gx = (int)(chunks < want ? chunks : want);
    autocorr_kernel<<<dim3(gx, groups), kAcBlock>>>(dx, n, kmax, dr);
  }
  cudaMemcpy(r, dr, (size_t)K * sizeof(int64_t), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dr);
}
