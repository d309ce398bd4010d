#include <cuda_runtime.h>
#include <cstddef>
#include <cstdint>
#include <vector>

// Cell (i, j = d - i) of anti-diagonal d; both predecessors (up and left) lie on
// diagonal d-1, stored indexed by row.
__global__ void path_diagonal(int d, int lo, int hi, const int* grid, int cols, const long long* prev, long long* cur) {
  int i = lo + blockIdx.x * blockDim.x + threadIdx.x;
  if (i > hi) return;
  int j = d - i;
  long long g = grid[(size_t)i * cols + j];
  long long v;
  if (i == 0 && j == 0) v = g;
  else if (i == 0) v = prev[i] + g;        // left
  else if (j == 0) v = prev[i - 1] + g;    // up
  else v = g + max(prev[i - 1], prev[i]);  // max(up, left)
  cur[i] = v;
}

int64_t max_path_sum(const std::vector<int>& grid, int rows, int cols) {
  if (rows <= 0 || cols <= 0) return 0;
  size_t n = (size_t)rows * cols;
  int* d_grid = nullptr;
  long long *d_a = nullptr, *d_b = nullptr;
  cudaMalloc(&d_grid, n * sizeof(int));
  cudaMalloc(&d_a, (size_t)rows * sizeof(long long));
  cudaMalloc(&d_b, (size_t)rows * sizeof(long long));
  cudaMemcpy(d_grid, grid.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  long long *prev = d_a, *cur = d_b;
  for (int d = 0; d <= rows + cols - 2; ++d) {
    int lo = d - (cols - 1) > 0 ? d - (cols - 1) : 0;
    int hi = d < rows - 1 ? d : rows - 1;
    path_diagonal<<<(hi - lo + 1 + 255) / 256, 256>>>(d, lo, hi, d_grid, cols, prev, cur);
    long long* t = prev;
    prev = cur;
    cur = t;
  }
  long long result = 0;
  cudaMemcpy(&result, prev + (rows - 1), sizeof(long long), cudaMemcpyDeviceToHost);
  cudaFree(d_grid);
  cudaFree(d_a);
  cudaFree(d_b);
  return (int64_t)result;
}
