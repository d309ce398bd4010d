#include <cuda_runtime.h>
#include <cstddef>

constexpr int kWarpsPerBlock = 4;
constexpr int kMaxLen = 256;  // 32 lanes x 8 rows

// Step 1 (thread_mapping): one warp per candidate.
// Step 2 (algorithmic_restructuring): the table is swept as an anti-diagonal
// wavefront pipelined across the lanes: lane l owns rows [l*R, l*R + R) and
// computes column j at step j + l, one step behind lane l - 1.
// Step 3 (warp_shuffle_reduction): the cell above a lane's band, D[l*R-1][j],
// comes from lane l - 1 with __shfl_up_sync; the value received one step
// earlier is the diagonal D[l*R-1][j-1].
// Step 4 (register_tiling): the lane's R cells of the current column live in
// a register array.
// Step 5 (shared_memory_tiling): the candidate series is staged in shared
// memory (each lane reads a different column).
// Step 6 (register_caching): the lane's R query values stay in registers.
// Step 7 (loop_unrolling): R is a template parameter and the row loop is
// fully unrolled.
// Step 8 (synchronization_reduction): the pipeline is warp-synchronous; no
// __syncthreads anywhere.
// Every cell is cost + fminf of the same three values as in the serial code
// (missing neighbours are +inf), so the result is bit-identical.
template <int R>
__global__ void dtw_warp_kernel(int ncand, int len, const float* __restrict__ query, const float* __restrict__ cands,
                                float* __restrict__ dist) {
  __shared__ float s_c[kWarpsPerBlock][kMaxLen];
  const float kInf = __int_as_float(0x7f800000);
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  int p = blockIdx.x * kWarpsPerBlock + warp;
  if (p >= ncand) return;  // the whole warp leaves together
  const float* c = cands + (size_t)p * len;
  for (int j = lane; j < len; j += 32) s_c[warp][j] = c[j];
  __syncwarp();
  float qv[R], col[R];
#pragma unroll
  for (int r = 0; r < R; ++r) {
    int i = lane * R + r;
    qv[r] = i < len ? query[i] : 0.0f;
    col[r] = kInf;  // column -1 does not exist
  }
  bool has_rows = lane * R < len;
  float last_out = kInf;  // D[lane*R + R - 1][previous column]
  float up_prev = kInf;   // D[lane*R - 1][j - 1]
  int steps = len + 31;
  for (int t = 0; t < steps; ++t) {
    float recv = __shfl_up_sync(0xffffffffu, last_out, 1);
    int j = t - lane;
    if (has_rows && j >= 0 && j < len) {
      float cj = s_c[warp][j];
      float top = lane == 0 ? kInf : recv;
      float diag = (lane == 0 || j == 0) ? kInf : up_prev;
#pragma unroll
      for (int r = 0; r < R; ++r) {
        int i = lane * R + r;
        float left = col[r];
        float best = (i == 0 && j == 0) ? 0.0f : fminf(fminf(top, left), diag);
        float v = fabsf(qv[r] - cj) + best;
        diag = left;  // D[i][j-1] is the next row's diagonal
        top = v;      // D[i][j] is the next row's top
        col[r] = v;
      }
      last_out = col[R - 1];
    }
    up_prev = recv;
  }
  int last_row = len - 1;
  if (lane == last_row / R) {
    float out = 0.0f;
#pragma unroll
    for (int r = 0; r < R; ++r)
      if (r == last_row % R) out = col[r];
    dist[p] = out;
  }
}

// Fallback for len > 256: one thread per candidate with two rows of scratch.
__global__ void dtw_thread_kernel(int ncand, int len, const float* __restrict__ query, const float* __restrict__ cands,
                                  float* __restrict__ scratch, float* __restrict__ dist) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= ncand) return;
  const float* c = cands + (size_t)p * len;
  float* prev = scratch + (size_t)p * 2 * len;
  float* cur = prev + len;
  for (int i = 0; i < len; ++i) {
    for (int j = 0; j < len; ++j) {
      float cost = fabsf(query[i] - c[j]);
      float best;
      if (i == 0 && j == 0) {
        best = 0.0f;
      } else if (i == 0) {
        best = cur[j - 1];
      } else if (j == 0) {
        best = prev[j];
      } else {
        best = fminf(fminf(prev[j], cur[j - 1]), prev[j - 1]);
      }
      cur[j] = cost + best;
    }
    float* t = prev;
    prev = cur;
    cur = t;
  }
  dist[p] = prev[len - 1];
}

void dtwDistances(int ncand, int len, const float* query, const float* cands, float* dist) {
  if (ncand <= 0 || len <= 0) return;
  size_t cb = (size_t)ncand * len * sizeof(float);
  float *dq = nullptr, *dc = nullptr, *dd = nullptr, *dscratch = nullptr;
  cudaMalloc(&dq, (size_t)len * sizeof(float));
  cudaMalloc(&dc, cb);
  cudaMalloc(&dd, (size_t)ncand * sizeof(float));
  cudaMemcpy(dq, query, (size_t)len * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dc, cands, cb, cudaMemcpyHostToDevice);
  int blocks = (ncand + kWarpsPerBlock - 1) / kWarpsPerBlock;
  int threads = 32 * kWarpsPerBlock;
  if (len <= 32) {
    dtw_warp_kernel<1><<<blocks, threads>>>(ncand, len, dq, dc, dd);
  } else if (len <= 64) {
    dtw_warp_kernel<2><<<blocks, threads>>>(ncand, len, dq, dc, dd);
  } else if (len <= 128) {
    dtw_warp_kernel<4><<<blocks, threads>>>(ncand, len, dq, dc, dd);
  } else if (len <= kMaxLen) {
    dtw_warp_kernel<8><<<blocks, threads>>>(ncand, len, dq, dc, dd);
  } else {
    cudaMalloc(&dscratch, (size_t)ncand * 2 * len * sizeof(float));
    dtw_thread_kernel<<<(ncand + 127) / 128, 128>>>(ncand, len, dq, dc, dscratch, dd);
  }
  cudaMemcpy(dist, dd, (size_t)ncand * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(dq);
  cudaFree(dc);
  cudaFree(dd);
  cudaFree(dscratch);
}
