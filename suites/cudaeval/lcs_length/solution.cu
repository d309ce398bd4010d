#include <cuda_runtime.h>
#include <cstddef>
#include <cstdint>
#include <vector>

// Two-level wavefront. The DP table is cut into TR x TC tiles; tiles on the
// same anti-diagonal of tiles are independent and run as the blocks of one
// launch (one launch per tile diagonal, instead of one per cell diagonal).
// Inside a tile, thread t owns row i0 + t and sweeps the cell anti-diagonals:
// at step s it computes column c = s - t. Its own left neighbour and the
// up-left value stay in registers; the up value comes from thread t - 1's
// previous step through a double-buffered shared array, so one barrier per
// step suffices. Tile boundaries travel through global arrays: the bottom row
// (hrow) and right column (vcol) of each tile, double-buffered by diagonal
// parity, and each tile's bottom-right corner (needed as the up-left value of
// the tile diagonally below). Only the final length goes back to the host.
#define TR 128
#define TC 128

__global__ void lcs_tile_kernel(const uint8_t* __restrict__ a, const uint8_t* __restrict__ b, int n, int m, int d,
                                int r_first, int ntc, int* __restrict__ hrow, int* __restrict__ vcol,
                                int* __restrict__ corner) {
  __shared__ uint8_t sb[TC];
  __shared__ int top[TC + 1];  // D[i0-1][j0-1 .. j0+cols-1]
  __shared__ int xbuf[2][TR];

  const int R = r_first + blockIdx.x;
  const int C = d - R;
  const int i0 = R * TR, j0 = C * TC;
  const int rows = min(TR, n - i0), cols = min(TC, m - j0);
  const int t = threadIdx.x;

  const int* hin = hrow + (size_t)((d - 1) & 1) * m;  // bottom row of tile (R-1, C), diagonal d-1
  const int* vin = vcol + (size_t)((d - 1) & 1) * n;  // right column of tile (R, C-1), diagonal d-1
  int* hout = hrow + (size_t)(d & 1) * m;
  int* vout = vcol + (size_t)(d & 1) * n;

  for (int c = t; c < cols; c += TR) {
    sb[c] = b[j0 + c];
    top[c + 1] = (R > 0) ? hin[j0 + c] : 0;
  }
  if (t == 0) top[0] = (R > 0 && C > 0) ? corner[(size_t)(R - 1) * ntc + (C - 1)] : 0;

  int ai = 0, left = 0, upleft = 0;
  if (t < rows) {
    ai = a[i0 + t];
    left = (C > 0) ? vin[i0 + t] : 0;                       // D[i][j0-1]
    if (t > 0) upleft = (C > 0) ? vin[i0 + t - 1] : 0;     // D[i-1][j0-1]
  }
  __syncthreads();
  if (t == 0) upleft = top[0];

  const int steps = rows + cols - 1;
  for (int s = 0; s < steps; ++s) {
    int c = s - t;
    if (t < rows && c >= 0 && c < cols) {
      int up = (t == 0) ? top[c + 1] : xbuf[(s - 1) & 1][t - 1];
      int v = (ai == (int)sb[c]) ? upleft + 1 : max(up, left);
      upleft = up;
      left = v;
      xbuf[s & 1][t] = v;
      if (t == rows - 1) hout[j0 + c] = v;
      if (c == cols - 1) vout[i0 + t] = v;
      if (t == rows - 1 && c == cols - 1) corner[(size_t)R * ntc + C] = v;
    }
    __syncthreads();
  }
}

int longestCommonSubsequenceLength(std::vector<uint8_t> const& a, std::vector<uint8_t> const& b) {
  const int n = (int)a.size(), m = (int)b.size();
  if (n == 0 || m == 0) return 0;
  const int ntr = (n + TR - 1) / TR, ntc = (m + TC - 1) / TC;
  uint8_t *da = nullptr, *db = nullptr;
  int *dh = nullptr, *dv = nullptr, *dc = nullptr;
  cudaMalloc(&da, (size_t)n);
  cudaMalloc(&db, (size_t)m);
  cudaMalloc(&dh, 2 * (size_t)m * sizeof(int));
  cudaMalloc(&dv, 2 * (size_t)n * sizeof(int));
  cudaMalloc(&dc, (size_t)ntr * ntc * sizeof(int));
  cudaMemcpy(da, a.data(), (size_t)n, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), (size_t)m, cudaMemcpyHostToDevice);
  for (int d = 0; d <= ntr + ntc - 2; ++d) {
    int r_first = d - (ntc - 1) > 0 ? d - (ntc - 1) : 0;
    int r_last = d < ntr - 1 ? d : ntr - 1;
    lcs_tile_kernel<<<r_last - r_first + 1, TR>>>(da, db, n, m, d, r_first, ntc, dh, dv, dc);
  }
  int result = 0;
  cudaMemcpy(&result, dc + ((size_t)ntr * ntc - 1), sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dh);
  cudaFree(dv);
  cudaFree(dc);
  return result;
}
