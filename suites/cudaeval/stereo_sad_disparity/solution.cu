#include <cuda_runtime.h>
#include <cstdint>

// Step 1 (thread_mapping): a block of kSdTw threads owns a kSdTw x kSdTh
// pixel tile; thread tx owns image column x0 + tx of it.
// Step 2 (shared_memory_tiling): the block stages the left tile with an
// r-pixel apron and the right tile with the apron plus D - 1 columns to the
// left (coordinates clamped as in the reference) in shared memory once, and
// reuses them for all D disparities.
// Step 3 (algorithmic_restructuring): the (2r+1)^2 window sum is separable:
// per disparity the block first forms column sums over 2r + 1 rows of
// |L - R| into shared memory, then each pixel adds 2r + 1 column sums.
// Step 4 (strength_reduction): column sums slide down the tile: the sum for
// the next row adds the entering row's difference and subtracts the leaving
// one (two terms instead of 2r + 1).
// Step 5 (register_tiling): each thread handles kSdTh = 16 rows of its
// column and keeps their best cost and disparity in registers across d.
// Step 6 (loop_unrolling): the 16-row loops are fully unrolled so the
// per-row arrays stay in registers.
// Costs are exact integers, and the strict "<" over increasing d keeps the
// reference's smallest-d tie rule.
constexpr int kSdTw = 64;
constexpr int kSdTh = 16;

__device__ __forceinline__ int sd_clamp(int v, int n) { return v < 0 ? 0 : (v >= n ? n - 1 : v); }

__global__ void stereo_sad_kernel(const uint8_t* __restrict__ left, const uint8_t* __restrict__ right, int w, int h,
                                  int D, int r, uint8_t* __restrict__ disp) {
  extern __shared__ unsigned char sd_smem[];
  const int rows = kSdTh + 2 * r;        // tile rows with apron
  const int lcols = kSdTw + 2 * r;       // left tile columns with apron
  const int rcols = lcols + D - 1;       // right tile columns
  int* cs = reinterpret_cast<int*>(sd_smem);               // kSdTh x lcols column sums
  uint8_t* lt = sd_smem + sizeof(int) * kSdTh * lcols;     // rows x lcols
  uint8_t* rt = lt + rows * lcols;                         // rows x rcols
  const int x0 = blockIdx.x * kSdTw, y0 = blockIdx.y * kSdTh;
  const int tx = threadIdx.x;
  for (int k = 0; k < rows; ++k) {
    const int yy = sd_clamp(y0 - r + k, h);
    for (int c = tx; c < lcols; c += kSdTw) lt[k * lcols + c] = left[(long)yy * w + sd_clamp(x0 - r + c, w)];
    for (int c = tx; c < rcols; c += kSdTw) {
      rt[k * rcols + c] = right[(long)yy * w + sd_clamp(x0 - r - (D - 1) + c, w)];
    }
  }
  int best[kSdTh], best_d[kSdTh];
#pragma unroll
  for (int i = 0; i < kSdTh; ++i) {
    best[i] = 0x7fffffff;
    best_d[i] = 0;
  }
  __syncthreads();
  for (int d = 0; d < D; ++d) {
    const int shift = D - 1 - d;  // right tile column of left tile column c is c + shift
    for (int c = tx; c < lcols; c += kSdTw) {
      int s = 0;
      for (int k = 0; k <= 2 * r; ++k) s += abs((int)lt[k * lcols + c] - (int)rt[k * rcols + c + shift]);
      cs[c] = s;
#pragma unroll
      for (int i = 1; i < kSdTh; ++i) {
        const int in = i + 2 * r, out = i - 1;
        s += abs((int)lt[in * lcols + c] - (int)rt[in * rcols + c + shift]) -
             abs((int)lt[out * lcols + c] - (int)rt[out * rcols + c + shift]);
        cs[i * lcols + c] = s;
      }
    }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < kSdTh; ++i) {
      int cost = 0;
      for (int dx = 0; dx <= 2 * r; ++dx) cost += cs[i * lcols + tx + dx];
      if (cost < best[i]) {
        best[i] = cost;
        best_d[i] = d;
      }
    }
    __syncthreads();  // cs is rewritten for the next disparity
  }
  const int x = x0 + tx;
  if (x >= w) return;
#pragma unroll
  for (int i = 0; i < kSdTh; ++i) {
    if (y0 + i < h) disp[(long)(y0 + i) * w + x] = (uint8_t)best_d[i];
  }
}

void stereoSadDisparity(const uint8_t* left, const uint8_t* right, int w, int h, int D, int r, uint8_t* disp) {
  if (w <= 0 || h <= 0 || D <= 0) return;
  size_t n = (size_t)w * h;
  uint8_t *dl = nullptr, *dr = nullptr, *dd = nullptr;
  cudaMalloc(&dl, n);
  cudaMalloc(&dr, n);
  cudaMalloc(&dd, n);
  cudaMemcpy(dl, left, n, cudaMemcpyHostToDevice);
  cudaMemcpy(dr, right, n, cudaMemcpyHostToDevice);
  const int rows = kSdTh + 2 * r, lcols = kSdTw + 2 * r, rcols = lcols + D - 1;
  size_t smem = sizeof(int) * kSdTh * lcols + (size_t)rows * lcols + (size_t)rows * rcols;
  if (smem > 48 * 1024) cudaFuncSetAttribute(stereo_sad_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
  dim3 grid((w + kSdTw - 1) / kSdTw, (h + kSdTh - 1) / kSdTh);
  stereo_sad_kernel<<<grid, kSdTw, smem>>>(dl, dr, w, h, D, r, dd);
  cudaMemcpy(disp, dd, n, cudaMemcpyDeviceToHost);
  cudaFree(dl);
  cudaFree(dr);
  cudaFree(dd);
}
