#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <vector>

namespace cg = cooperative_groups;

#define T 64  // tile edge; a 64-thread block computes a tile, thread k owns tile row k

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

// One tile in shared memory: load its top row and left column, sweep the 2T-1
// inner anti-diagonals (one barrier each), publish bottom row and right column.
__device__ void nw_smem_tile(int ti, int tj, const char* __restrict__ a, int n, const char* __restrict__ b, int m,
                             int match, int mismatch, int gap, int* __restrict__ horiz, int* __restrict__ vert,
                             int* __restrict__ result, int (*s)[T + 1]) {
  int r0 = ti * T, c0 = tj * T;
  int th = min(T, n - r0), tw = min(T, m - c0);
  int tid = threadIdx.x;
  const int* top = horiz + (size_t)ti * (m + 1) + c0;
  const int* left = vert + (size_t)tj * (n + 1) + r0;
  for (int x = tid; x <= tw; x += T) s[0][x] = top[x];
  for (int y = tid + 1; y <= th; y += T) s[y][0] = left[y];
  char ai = tid < th ? a[r0 + tid] : 0;
  __syncthreads();
  int ii = tid + 1;
  for (int t = 0; t < th + tw - 1; ++t) {
    int jj = t - tid + 1;
    if (tid < th && jj >= 1 && jj <= tw) {
      int diag = s[ii - 1][jj - 1] + (ai == b[c0 + jj - 1] ? match : mismatch);
      s[ii][jj] = max(max(diag, s[ii - 1][jj] + gap), s[ii][jj - 1] + gap);
    }
    __syncthreads();
  }
  if (th == T)
    for (int x = tid + 1; x <= tw; x += T) horiz[(size_t)(ti + 1) * (m + 1) + c0 + x] = s[T][x];
  if (tw == T && tid < th) vert[(size_t)(tj + 1) * (n + 1) + r0 + ii] = s[ii][T];
  if (r0 + th == n && c0 + tw == m && tid == 0) *result = s[th][tw];
  __syncthreads();  // the shared tile is reused by this block's next tile
}

// Cooperative kernel over tile diagonals: grid barriers drop from n + m + 1 to
// n/64 + m/64 + 1, and the cells inside a tile never leave shared memory.
__global__ void nw_coop_tiles(const char* __restrict__ a, int n, const char* __restrict__ b, int m, int match,
                              int mismatch, int gap, int NT, int MT, int* horiz, int* vert, int* result) {
  __shared__ int s[T + 1][T + 1];
  cg::grid_group grid = cg::this_grid();
  nw_init_borders(n, m, NT, MT, gap, horiz, vert, blockIdx.x * blockDim.x + threadIdx.x, gridDim.x * blockDim.x);
  grid.sync();
  for (int k = 0; k <= NT + MT - 2; ++k) {
    int ti_lo = k - (MT - 1) > 0 ? k - (MT - 1) : 0;
    int ti_hi = k < NT - 1 ? k : NT - 1;
    for (int ti = ti_lo + blockIdx.x; ti <= ti_hi; ti += gridDim.x)
      nw_smem_tile(ti, k - ti, a, n, b, m, match, mismatch, gap, horiz, vert, result, s);
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
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, nw_coop_tiles, T, 0);
  int grid = sms * (per_sm > 0 ? per_sm : 1);
  int widest = NT < MT ? NT : MT;
  if (grid > widest) grid = widest;
  void* args[] = {&d_a, &n, &d_b, &m, &match, &mismatch, &gap, &NT, &MT, &d_h, &d_v, &d_res};
  cudaLaunchCooperativeKernel(nw_coop_tiles, dim3(grid), dim3(T), args, 0, 0);
  int result = 0;
  cudaMemcpy(&result, d_res, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d_a);
  cudaFree(d_b);
  cudaFree(d_h);
  cudaFree(d_v);
  cudaFree(d_res);
  return result;
}
