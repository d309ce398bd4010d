#include <cuda_runtime.h>
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

#define T 32            // tile edge = warp size: lane k owns tile row k
#define WARPS 4         // tiles (warps) per block
#define FULL 0xffffffffu

// horiz[r][j] = dp[r*T][j]   (boundary rows, every T rows, j = 0..m)
// vert[c][i]  = dp[i][c*T]   (boundary columns, every T columns, i = 0..n)
__global__ void lev_init_borders(int n, int m, int NT, int MT, int* horiz, int* vert) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t <= m) horiz[t] = t;
  if (t <= n) vert[t] = t;
  if (t >= 1 && t <= NT) horiz[(size_t)t * (m + 1)] = t * T;
  if (t >= 1 && t <= MT) vert[(size_t)t * (n + 1)] = t * T;
}

// One warp computes one T x T tile with no shared-memory DP array and no block
// barriers: lane k walks tile row k one column per step, one step behind lane
// k-1. The value above comes from lane k-1 with __shfl_up_sync (lane 0 reads the
// staged top boundary), the value to the left is the lane's own previous result,
// and the upper-left value is the "above" value received one step earlier.
__device__ __forceinline__ void lev_warp_tile(int ti, int tj, const char* __restrict__ a, int n,
                                              const char* __restrict__ b, int m, int* __restrict__ horiz,
                                              int* __restrict__ vert, int* __restrict__ result, int* topb) {
  int lane = threadIdx.x & 31;
  int r0 = ti * T, c0 = tj * T;
  int th = min(T, n - r0), tw = min(T, m - c0);
  const int* top = horiz + (size_t)ti * (m + 1) + c0;
  for (int x = lane; x <= tw; x += 32) topb[x] = top[x];
  __syncwarp();
  bool row_ok = lane < th;
  int gi = r0 + 1 + lane;
  char ai = row_ok ? a[gi - 1] : 0;
  int h = row_ok ? vert[(size_t)tj * (n + 1) + gi] : 0;  // dp[gi][c0]: value to the left
  int dg = topb[0];                                      // lane 0's first upper-left value
  for (int t = 0; t < tw + T - 1; ++t) {
    int jj = t - lane;                                   // 0-based column inside the tile
    int up = __shfl_up_sync(FULL, h, 1);
    if (lane == 0) up = (jj < tw) ? topb[jj + 1] : 0;
    if (row_ok && jj >= 0 && jj < tw) {
      int cost = ai != b[c0 + jj];
      int v = min(min(up + 1, h + 1), dg + cost);
      h = v;
      if (lane == th - 1 && th == T) horiz[(size_t)(ti + 1) * (m + 1) + c0 + 1 + jj] = v;
      if (jj == tw - 1 && tw == T) vert[(size_t)(tj + 1) * (n + 1) + gi] = v;
      if (jj == tw - 1 && lane == th - 1 && r0 + th == n && c0 + tw == m) *result = v;
    }
    dg = up;  // next column's upper-left value
  }
  __syncwarp();  // topb is reused by the warp's next tile
}

// Persistent cooperative kernel over all tile diagonals: the warps of the
// co-resident grid stride over the tiles of diagonal k, then a grid-wide barrier
// makes their boundary rows and columns visible before diagonal k + 1 starts.
// One launch replaces NT + MT - 1 launches.
__global__ void lev_persistent(const char* __restrict__ a, int n, const char* __restrict__ b, int m, int NT, int MT,
                               int* __restrict__ horiz, int* __restrict__ vert, int* __restrict__ result) {
  __shared__ int topb[WARPS][T + 1];
  cg::grid_group grid = cg::this_grid();
  int w = threadIdx.x >> 5;
  int gwarp = blockIdx.x * WARPS + w, nwarps = gridDim.x * WARPS;
  for (int k = 0; k <= NT + MT - 2; ++k) {
    int ti_lo = k - (MT - 1) > 0 ? k - (MT - 1) : 0;
    int ti_hi = k < NT - 1 ? k : NT - 1;
    for (int ti = ti_lo + gwarp; ti <= ti_hi; ti += nwarps) lev_warp_tile(ti, k - ti, a, n, b, m, horiz, vert, result, topb[w]);
    grid.sync();
  }
}

int levenshtein_distance(const char* a, int n, const char* b, int m) {
  if (n <= 0 || m <= 0) return n > m ? n : m;
  int NT = (n + T - 1) / T, MT = (m + T - 1) / T;
  char *d_a = nullptr, *d_b = nullptr;
  int *d_h = nullptr, *d_v = nullptr, *d_res = nullptr;
  cudaMalloc(&d_a, (size_t)n);
  cudaMalloc(&d_b, (size_t)m);
  cudaMalloc(&d_h, (size_t)(NT + 1) * (m + 1) * sizeof(int));
  cudaMalloc(&d_v, (size_t)(MT + 1) * (n + 1) * sizeof(int));
  cudaMalloc(&d_res, sizeof(int));
  cudaMemcpy(d_a, a, (size_t)n, cudaMemcpyHostToDevice);
  cudaMemcpy(d_b, b, (size_t)m, cudaMemcpyHostToDevice);
  int span = (n > m ? n : m) + 1;
  lev_init_borders<<<(span + 255) / 256, 256>>>(n, m, NT, MT, d_h, d_v);
  int sms = 0, per_sm = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, lev_persistent, 32 * WARPS, 0);
  int max_tiles = NT < MT ? NT : MT;  // widest tile diagonal
  int grid = sms * (per_sm > 0 ? per_sm : 1);
  int needed = (max_tiles + WARPS - 1) / WARPS;
  if (grid > needed) grid = needed;
  void* args[] = {&d_a, &n, &d_b, &m, &NT, &MT, &d_h, &d_v, &d_res};
  cudaLaunchCooperativeKernel(lev_persistent, dim3(grid), dim3(32 * WARPS), args, 0, 0);
  int result = 0;
  cudaMemcpy(&result, d_res, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d_a);
  cudaFree(d_b);
  cudaFree(d_h);
  cudaFree(d_v);
  cudaFree(d_res);
  return result;
}
