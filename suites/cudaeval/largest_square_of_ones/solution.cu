#include <cuda_runtime.h>
#include <cstddef>
#include <cstdint>

// Step 1 (thread_mapping) and Step 2 (algorithmic_restructuring): the square
// side satisfies s(i,j) = min(s(i-1,j-1) + 1, up(i,j), left(i,j)) on a 1 cell
// (0 on a 0 cell), with up/left the lengths of the runs of ones ending at
// (i,j) going up / left. Runs are independent per column and per row, and s
// then depends only on its diagonal predecessor, so each pass is
// embarrassingly parallel: a thread per column, per row, per diagonal.

// Up-runs: one thread per column walks down; consecutive threads read
// consecutive bytes of a row.
__global__ void up_runs_kernel(int rows, int cols, const uint8_t* __restrict__ grid, int* __restrict__ up) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= cols) return;
  int run = 0;
  for (int i = 0; i < rows; ++i) {
    size_t k = (size_t)i * cols + j;
    run = grid[k] ? run + 1 : 0;
    up[k] = run;
  }
}

// Left-runs, Step 3 (shared_memory_tiling): lane l of a warp owns row
// row0 + l. The warp loads 32 x 32 byte tiles row by row (lane = column, one
// contiguous 32-byte load per row) into shared memory, then every lane walks
// its own row of the tile.
__global__ void left_runs_kernel(int rows, int cols, const uint8_t* __restrict__ grid, int* __restrict__ left) {
  __shared__ uint8_t tile[4][32][33];
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  int row0 = (blockIdx.x * 4 + warp) * 32;
  if (row0 >= rows) return;  // whole warp leaves together
  int my_row = row0 + lane;
  int run = 0;
  for (int c0 = 0; c0 < cols; c0 += 32) {
    int width = cols - c0 < 32 ? cols - c0 : 32;
    __syncwarp();
    for (int r = 0; r < 32 && row0 + r < rows; ++r) {
      if (lane < width) tile[warp][r][lane] = grid[(size_t)(row0 + r) * cols + c0 + lane];
    }
    __syncwarp();
    if (my_row < rows) {
      for (int c = 0; c < width; ++c) {
        run = tile[warp][lane][c] ? run + 1 : 0;
        left[(size_t)my_row * cols + c0 + c] = run;
      }
    }
  }
}

// One thread per diagonal d (cells with j - i = d - (rows - 1)), walking it
// from its top cell; Step 4 (atomic_operations): the warp's maximum (after a
// shuffle max) is merged into the result with one atomicMax.
__global__ void diagonal_kernel(int rows, int cols, const int* __restrict__ up, const int* __restrict__ left,
                                int* __restrict__ best) {
  int d = blockIdx.x * blockDim.x + threadIdx.x;
  int ndiag = rows + cols - 1;
  int m = 0;
  if (d < ndiag) {
    int off = d - (rows - 1);  // j - i
    int i = off < 0 ? -off : 0;
    int j = i + off;
    int s = 0;
    for (; i < rows && j < cols; ++i, ++j) {
      size_t k = (size_t)i * cols + j;
      int u = up[k], l = left[k];
      int v = s + 1;
      if (u < v) v = u;
      if (l < v) v = l;
      s = v;  // 0 on a 0 cell, since its runs are 0
      if (s > m) m = s;
    }
  }
  for (int o = 16; o > 0; o >>= 1) {
    int y = __shfl_down_sync(0xffffffffu, m, o);
    if (y > m) m = y;
  }
  if (threadIdx.x % 32 == 0 && m > 0) atomicMax(best, m);
}

int largestSquareOfOnes(int rows, int cols, const uint8_t* grid) {
  if (rows <= 0 || cols <= 0) return 0;
  size_t cells = (size_t)rows * cols;
  uint8_t* dg = nullptr;
  int *dup = nullptr, *dleft = nullptr, *dbest = nullptr;
  cudaMalloc(&dg, cells);
  cudaMalloc(&dup, cells * sizeof(int));
  cudaMalloc(&dleft, cells * sizeof(int));
  cudaMalloc(&dbest, sizeof(int));
  cudaMemcpy(dg, grid, cells, cudaMemcpyHostToDevice);
  cudaMemset(dbest, 0, sizeof(int));
  up_runs_kernel<<<(cols + 127) / 128, 128>>>(rows, cols, dg, dup);
  left_runs_kernel<<<(rows + 127) / 128, 128>>>(rows, cols, dg, dleft);
  int ndiag = rows + cols - 1;
  diagonal_kernel<<<(ndiag + 127) / 128, 128>>>(rows, cols, dup, dleft, dbest);
  int best = 0;
  cudaMemcpy(&best, dbest, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dg);
  cudaFree(dup);
  cudaFree(dleft);
  cudaFree(dbest);
  return best;
}
