#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <vector>

namespace cg = cooperative_groups;

// Cell (i, d - i) of anti-diagonal d; diagonals are stored indexed by row i.
__device__ __forceinline__ int nw_cell(int i, int j, const char* a, const char* b, int match, int mismatch, int gap,
                                       const int* d2, const int* d1) {
  if (i == 0) return j * gap;
  if (j == 0) return i * gap;
  int diag = d2[i - 1] + (a[i - 1] == b[j - 1] ? match : mismatch);
  int up = d1[i - 1] + gap;
  int left = d1[i] + gap;
  return max(max(diag, up), left);
}

// All anti-diagonals in one persistent cooperative launch: the co-resident grid
// strides over the cells of diagonal d, then a grid-wide barrier publishes them
// before diagonal d + 1. Every thread rotates the three diagonal pointers in the
// same way, so all agree on which buffer is which.
__global__ void nw_coop_diagonals(const char* __restrict__ a, int n, const char* __restrict__ b, int m, int match,
                                  int mismatch, int gap, int* buf0, int* buf1, int* buf2, int* result) {
  cg::grid_group grid = cg::this_grid();
  int *p2 = buf0, *p1 = buf1, *p0 = buf2;
  int start = blockIdx.x * blockDim.x + threadIdx.x, stride = gridDim.x * blockDim.x;
  for (int d = 0; d <= n + m; ++d) {
    int lo = d - m > 0 ? d - m : 0;
    int hi = d < n ? d : n;
    for (int i = lo + start; i <= hi; i += stride) p0[i] = nw_cell(i, d - i, a, b, match, mismatch, gap, p2, p1);
    grid.sync();
    int* t = p2;
    p2 = p1;
    p1 = p0;
    p0 = t;
  }
  if (start == 0) *result = p1[n];
}

int nw_global_score(const std::vector<char>& s1, const std::vector<char>& s2, int match, int mismatch, int gap) {
  int n = (int)s1.size(), m = (int)s2.size();
  if (n == 0) return m * gap;
  if (m == 0) return n * gap;
  char *d_a = nullptr, *d_b = nullptr;
  int* buf[3];
  cudaMalloc(&d_a, (size_t)n);
  cudaMalloc(&d_b, (size_t)m);
  cudaMemcpy(d_a, s1.data(), (size_t)n, cudaMemcpyHostToDevice);
  cudaMemcpy(d_b, s2.data(), (size_t)m, cudaMemcpyHostToDevice);
  for (int k = 0; k < 3; ++k) cudaMalloc(&buf[k], (size_t)(n + 1) * sizeof(int));
  int* d_res = nullptr;
  cudaMalloc(&d_res, sizeof(int));
  int sms = 0, per_sm = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, nw_coop_diagonals, 256, 0);
  int longest = (n < m ? n : m) + 1;  // cells on the longest diagonal
  int grid = sms * (per_sm > 0 ? per_sm : 1);
  int needed = (longest + 255) / 256;
  if (grid > needed) grid = needed;
  void* args[] = {&d_a, &n, &d_b, &m, &match, &mismatch, &gap, &buf[0], &buf[1], &buf[2], &d_res};
  cudaLaunchCooperativeKernel(nw_coop_diagonals, dim3(grid), dim3(256), args, 0, 0);
  int result = 0;
  cudaMemcpy(&result, d_res, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d_res);
  cudaFree(d_a);
  cudaFree(d_b);
  for (int k = 0; k < 3; ++k) cudaFree(buf[k]);
  return result;
}
