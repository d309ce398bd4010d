#include <cuda_runtime.h>

#define NEG (-(1 << 28))
#define T 64  // tile edge; a 64-thread block (two warps) computes a tile, thread k owns tile row k

// Tile borders in global memory: every T rows the H and F values of the full row
// (hH, hF), every T columns the H and E values of the full column (vH, vE).
__global__ void sw_init_borders(int n, int m, int NT, int MT, int* hH, int* hF, int* vH, int* vE) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t <= m) {
    hH[t] = 0;
    hF[t] = NEG;
  }
  if (t <= n) {
    vH[t] = 0;
    vE[t] = NEG;
  }
  if (t >= 1 && t <= NT) {
    hH[(size_t)t * (m + 1)] = 0;
    hF[(size_t)t * (m + 1)] = NEG;
  }
  if (t >= 1 && t <= MT) {
    vH[(size_t)t * (n + 1)] = 0;
    vE[(size_t)t * (n + 1)] = NEG;
  }
}

__device__ __forceinline__ int warp_max(int v) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) v = max(v, __shfl_down_sync(0xffffffffu, v, off));
  return v;
}

// Tiled wavefront: one launch per tile diagonal, one block per tile. H and F live
// in shared (T+1) x (T+1) tiles, E runs along each thread's row in a register,
// and the 2T-1 inner anti-diagonals are separated by block barriers. Each thread
// keeps the best score of its row; the tile's maximum is reduced with shuffles
// and published with one atomicMax per tile.
__global__ void sw_tile_diag(int k, int ti_lo, const char* __restrict__ q, int n, const char* __restrict__ t, int m,
                             int match, int mismatch, int go, int ge, int* __restrict__ hH, int* __restrict__ hF,
                             int* __restrict__ vH, int* __restrict__ vE, int* __restrict__ best) {
  __shared__ int sH[T + 1][T + 1];
  __shared__ int sF[T + 1][T + 1];
  __shared__ int wbest[T / 32];
  int ti = ti_lo + blockIdx.x, tj = k - ti;
  int r0 = ti * T, c0 = tj * T;
  int th = min(T, n - r0), tw = min(T, m - c0);
  int tid = threadIdx.x, ii = tid + 1;
  for (int x = tid; x <= tw; x += T) {
    sH[0][x] = hH[(size_t)ti * (m + 1) + c0 + x];
    sF[0][x] = hF[(size_t)ti * (m + 1) + c0 + x];
  }
  for (int y = tid + 1; y <= th; y += T) sH[y][0] = vH[(size_t)tj * (n + 1) + r0 + y];
  bool row_ok = tid < th;
  int e = row_ok ? vE[(size_t)tj * (n + 1) + r0 + ii] : NEG;  // E[r0+ii][c0]
  char qi = row_ok ? q[r0 + tid] : 0;
  int mybest = 0;
  __syncthreads();
  for (int s = 0; s < th + tw - 1; ++s) {
    int jj = s - tid + 1;
    if (row_ok && jj >= 1 && jj <= tw) {
      e = max(e - ge, sH[ii][jj - 1] - go);
      int f = max(sF[ii - 1][jj] - ge, sH[ii - 1][jj] - go);
      int h = sH[ii - 1][jj - 1] + (qi == t[c0 + jj - 1] ? match : mismatch);
      h = max(max(h, e), max(f, 0));
      sH[ii][jj] = h;
      sF[ii][jj] = f;
      mybest = max(mybest, h);
    }
    __syncthreads();
  }
  if (th == T) {
    for (int x = tid + 1; x <= tw; x += T) {
      hH[(size_t)(ti + 1) * (m + 1) + c0 + x] = sH[T][x];
      hF[(size_t)(ti + 1) * (m + 1) + c0 + x] = sF[T][x];
    }
  }
  if (tw == T && row_ok) {
    vH[(size_t)(tj + 1) * (n + 1) + r0 + ii] = sH[ii][T];
    vE[(size_t)(tj + 1) * (n + 1) + r0 + ii] = e;  // E at the tile's last column
  }
  mybest = warp_max(mybest);
  if ((tid & 31) == 0) wbest[tid >> 5] = mybest;
  __syncthreads();
  if (tid == 0) {
    int v = wbest[0];
    for (int w = 1; w < T / 32; ++w) v = max(v, wbest[w]);
    if (v > 0) atomicMax(best, v);
  }
}

int smith_waterman_affine(const char* q, int n, const char* t, int m, int match, int mismatch, int gap_open,
                          int gap_extend) {
  if (n <= 0 || m <= 0) return 0;
  int NT = (n + T - 1) / T, MT = (m + T - 1) / T;
  char *d_q = nullptr, *d_t = nullptr;
  int *d_hH, *d_hF, *d_vH, *d_vE, *d_best;
  size_t hb = (size_t)(NT + 1) * (m + 1) * sizeof(int), vb = (size_t)(MT + 1) * (n + 1) * sizeof(int);
  cudaMalloc(&d_q, (size_t)n);
  cudaMalloc(&d_t, (size_t)m);
  cudaMalloc(&d_hH, hb);
  cudaMalloc(&d_hF, hb);
  cudaMalloc(&d_vH, vb);
  cudaMalloc(&d_vE, vb);
  cudaMalloc(&d_best, sizeof(int));
  cudaMemcpy(d_q, q, (size_t)n, cudaMemcpyHostToDevice);
  cudaMemcpy(d_t, t, (size_t)m, cudaMemcpyHostToDevice);
  cudaMemset(d_best, 0, sizeof(int));
  int span = (n > m ? n : m) + 1;
  sw_init_borders<<<(span + 255) / 256, 256>>>(n, m, NT, MT, d_hH, d_hF, d_vH, d_vE);
  for (int k = 0; k <= NT + MT - 2; ++k) {
    int ti_lo = k - (MT - 1) > 0 ? k - (MT - 1) : 0;
    int ti_hi = k < NT - 1 ? k : NT - 1;
    sw_tile_diag<<<ti_hi - ti_lo + 1, T>>>(k, ti_lo, d_q, n, d_t, m, match, mismatch, gap_open, gap_extend, d_hH, d_hF,
                                          d_vH, d_vE, d_best);
  }
  int best = 0;
  cudaMemcpy(&best, d_best, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d_q);
  cudaFree(d_t);
  cudaFree(d_hH);
  cudaFree(d_hF);
  cudaFree(d_vH);
  cudaFree(d_vE);
  cudaFree(d_best);
  return best;
}
