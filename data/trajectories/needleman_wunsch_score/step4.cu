#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <vector>

namespace cg = cooperative_groups;

#define T 32       // tile edge = warp size: lane k owns tile row k
#define WARPS 4    // tiles (warps) per block
#define FULL 0xffffffffu

// horiz[r][j] = H[r*T][j] (j = 0..m), vert[c][i] = H[i][c*T] (i = 0..n): the tile
// boundary rows and columns. Row 0 and column 0 are the gap-penalty borders.
__device__ __forceinline__ void nw_init_borders(int n, int m, int NT, int MT, int gap, int* horiz, int* vert,
                                                int start, int stride) {
  int span = (n > m ? n : m) + 1;
  for (int t = start; t < span; t += stride) {
    if (t <= m) horiz[t] = t * gap;
    if (t <= n) vert[t] = t * gap;
    if (t >= 1 && t <= NT) horiz[(size_t)t * (m + 1)] = t * T * gap;
    if (t >= 1 && t <= MT) vert[(size_t)t * (n + 1)] = t * T * gap;
  }
}

// One 32 x 32 tile per warp, entirely in registers: lane k walks row k one step
// behind lane k-1; "up" arrives from lane k-1 via __shfl_up_sync (lane 0 reads
// the staged top boundary), "left" is the lane's previous result and the
// upper-left value is the "up" of the previous step. No shared DP tile and no
// block barriers remain, and the smaller tiles widen every tile diagonal.
__device__ __forceinline__ void nw_warp_tile(int ti, int tj, const char* __restrict__ a, int n,
                                             const char* __restrict__ b, int m, int match, int mismatch, int gap,
                                             int* __restrict__ horiz, int* __restrict__ vert, int* __restrict__ result,
                                             int* topb) {
  int lane = threadIdx.x & 31;
  int r0 = ti * T, c0 = tj * T;
  int th = min(T, n - r0), tw = min(T, m - c0);
  const int* top = horiz + (size_t)ti * (m + 1) + c0;
  for (int x = lane; x <= tw; x += 32) topb[x] = top[x];
  __syncwarp();
  bool row_ok = lane < th;
  int gi = r0 + 1 + lane;
  char ai = row_ok ? a[gi - 1] : 0;
  int h = row_ok ? vert[(size_t)tj * (n + 1) + gi] : 0;
  int dg = topb[0];
  for (int t = 0; t < tw + T - 1; ++t) {
    int jj = t - lane;
    int up = __shfl_up_sync(FULL, h, 1);
    if (lane == 0) up = (jj < tw) ? topb[jj + 1] : 0;
    if (row_ok && jj >= 0 && jj < tw) {
      int diag = dg + (ai == b[c0 + jj] ? match : mismatch);
      int v = max(max(diag, up + gap), h + gap);
      h = v;
      if (lane == th - 1 && th == T) horiz[(size_t)(ti + 1) * (m + 1) + c0 + 1 + jj] = v;
      if (jj == tw - 1 && tw == T) vert[(size_t)(tj + 1) * (n + 1) + gi] = v;
      if (jj == tw - 1 && lane == th - 1 && r0 + th == n && c0 + tw == m) *result = v;
    }
    dg = up;
  }
  __syncwarp();
}

__global__ void nw_coop_warp_tiles(const char* __restrict__ a, int n, const char* __restrict__ b, int m, int match,
                                   int mismatch, int gap, int NT, int MT, int* horiz, int* vert, int* result) {
  __shared__ int topb[WARPS][T + 1];
  cg::grid_group grid = cg::this_grid();
  nw_init_borders(n, m, NT, MT, gap, horiz, vert, blockIdx.x * blockDim.x + threadIdx.x, gridDim.x * blockDim.x);
  grid.sync();
  int w = threadIdx.x >> 5;
  int gwarp = blockIdx.x * WARPS + w, nwarps = gridDim.x * WARPS;
  for (int k = 0; k <= NT + MT - 2; ++k) {
    int ti_lo = k - (MT - 1) > 0 ? k - (MT - 1) : 0;
    int ti_hi = k < NT - 1 ? k : NT - 1;
    for (int ti = ti_lo + gwarp; ti <= ti_hi; ti += nwarps)
      nw_warp_tile(ti, k - ti, a, n, b, m, match, mismatch, gap, horiz, vert, result, topb[w]);
    grid.sync();
  }
}

int nw_global_score(const std::vector<char>& s1, const std::vector<char>& s2, int match, int mismatch, int gap) {
  int n = (int)s1.size(), m = (int)s2.size();
  if (n == 0) return m * gap;
  if (m == 0) return n * gap;
  int NT = (n + T - 1) / T, MT = (m + T - 1) / T;
  char *d_a = nullptr, *d_b = nullptr;
  int *d_h = nullptr, *d_v = nullptr, *d_res = nullptr;
  cudaMalloc(&d_a, (size_t)n);
  cudaMalloc(&d_b, (size_t)m);
  cudaMalloc(&d_h, (size_t)(NT + 1) * (m + 1) * sizeof(int));
  cudaMalloc(&d_v, (size_t)(MT + 1) * (n + 1) * sizeof(int));
  cudaMalloc(&d_res, sizeof(int));
  cudaMemcpy(d_a, s1.data(), (size_t)n, cudaMemcpyHostToDevice);
  cudaMemcpy(d_b, s2.data(), (size_t)m, cudaMemcpyHostToDevice);
  int sms = 0, per_sm = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, nw_coop_warp_tiles, 32 * WARPS, 0);
  int grid = sms * (per_sm > 0 ? per_sm : 1);
  int widest = NT < MT ? NT : MT;
  int needed = (widest + WARPS - 1) / WARPS;
  if (grid > needed) grid = needed;
  void* args[] = {&d_a, &n, &d_b, &m, &match, &mismatch, &gap, &NT, &MT, &d_h, &d_v, &d_res};
  cudaLaunchCooperativeKernel(nw_coop_warp_tiles, dim3(grid), dim3(32 * WARPS), args, 0, 0);
  int result = 0;
  cudaMemcpy(&result, d_res, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d_a);
  cudaFree(d_b);
  cudaFree(d_h);
  cudaFree(d_v);
  cudaFree(d_res);
  return result;
}
