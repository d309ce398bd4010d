#include <cuda_runtime.h>

#define T 64  // tile edge; one 64-thread block per tile, thread k owns tile row k

// horiz[r][j] = dp[r*T][j]   (boundary rows, every T rows, j = 0..m)
// vert[c][i]  = dp[i][c*T]   (boundary columns, every T columns, i = 0..n)
__global__ void lev_init_borders(int n, int m, int NT, int MT, int* horiz, int* vert) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t <= m) horiz[t] = t;                        // dp[0][j] = j
  if (t <= n) vert[t] = t;                         // dp[i][0] = i
  if (t >= 1 && t <= NT) horiz[(size_t)t * (m + 1)] = t * T;  // dp[rT][0]
  if (t >= 1 && t <= MT) vert[(size_t)t * (n + 1)] = t * T;   // dp[0][cT]
}

// Tiled wavefront: all tiles (ti, tj) with ti + tj = k are independent. A block
// loads its tile's top row and left column from the boundary arrays into a shared
// (T+1) x (T+1) tile, sweeps the tile's 2T-1 inner anti-diagonals with one
// barrier each, and publishes its bottom row and right column for later tiles.
__global__ void lev_tile_diag(int k, int ti_lo, const char* __restrict__ a, int n, const char* __restrict__ b, int m,
                              int* __restrict__ horiz, int* __restrict__ vert, int* __restrict__ result) {
  __shared__ int s[T + 1][T + 1];
  int ti = ti_lo + blockIdx.x, tj = k - ti;
  int r0 = ti * T, c0 = tj * T;
  int th = min(T, n - r0), tw = min(T, m - c0);
  int tid = threadIdx.x;
  const int* top = horiz + (size_t)ti * (m + 1) + c0;   // dp[r0][c0 .. c0+tw]
  const int* left = vert + (size_t)tj * (n + 1) + r0;   // dp[r0 .. r0+th][c0]
  for (int x = tid; x <= tw; x += T) s[0][x] = top[x];
  for (int y = tid + 1; y <= th; y += T) s[y][0] = left[y];
  char ai = tid < th ? a[r0 + tid] : 0;
  __syncthreads();
  int ii = tid + 1;
  for (int t = 0; t < th + tw - 1; ++t) {
    int jj = t - tid + 1;
    if (tid < th && jj >= 1 && jj <= tw) {
      int cost = ai != b[c0 + jj - 1];
      s[ii][jj] = min(min(s[ii - 1][jj] + 1, s[ii][jj - 1] + 1), s[ii - 1][jj - 1] + cost);
    }
    __syncthreads();
  }
  if (th == T)
    for (int x = tid + 1; x <= tw; x += T) horiz[(size_t)(ti + 1) * (m + 1) + c0 + x] = s[T][x];
  if (tw == T && tid < th) vert[(size_t)(tj + 1) * (n + 1) + r0 + ii] = s[ii][T];
  if (r0 + th == n && c0 + tw == m && tid == 0) *result = s[th][tw];
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
  for (int k = 0; k <= NT + MT - 2; ++k) {
    int ti_lo = k - (MT - 1) > 0 ? k - (MT - 1) : 0;
    int ti_hi = k < NT - 1 ? k : NT - 1;
    lev_tile_diag<<<ti_hi - ti_lo + 1, T>>>(k, ti_lo, d_a, n, d_b, m, d_h, d_v, d_res);
  }
  int result = 0;
  cudaMemcpy(&result, d_res, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d_a);
  cudaFree(d_b);
  cudaFree(d_h);
  cudaFree(d_v);
  cudaFree(d_res);
  return result;
}
