#include <cuda_runtime.h>
#include <cstddef>
#include <cstdint>

constexpr int kWarpsPerBlock = 4;

// Step 1 (thread_mapping): rows are independent recurrences; lane l of a warp
// owns row (warp's first row + l).
// Step 2 (shared_memory_tiling): the warp walks its 32 rows in 32-column
// tiles. It loads a tile row by row, lane = column, so each load is one
// contiguous 128-byte segment, into a [32][33] array (the padding keeps the
// transposed reads on distinct banks), then every lane consumes its own row
// of the tile from shared memory.
__global__ void house_robber_kernel(int rows, int cols, const int* __restrict__ values, int64_t* __restrict__ best) {
  __shared__ int tile[kWarpsPerBlock][32][33];
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  int warps_total = gridDim.x * kWarpsPerBlock;
  for (int row0 = (blockIdx.x * kWarpsPerBlock + warp) * 32; row0 < rows; row0 += warps_total * 32) {
    int my_row = row0 + lane;
    int64_t take = 0, skip = 0;
    for (int c0 = 0; c0 < cols; c0 += 32) {
      int width = cols - c0 < 32 ? cols - c0 : 32;
      __syncwarp();
      for (int r = 0; r < 32 && row0 + r < rows; ++r) {
        if (lane < width) tile[warp][r][lane] = values[(size_t)(row0 + r) * cols + c0 + lane];
      }
      __syncwarp();
      if (my_row < rows) {
        for (int c = 0; c < width; ++c) {
          int64_t t = skip + tile[warp][lane][c];
          skip = take > skip ? take : skip;
          take = t;
        }
      }
    }
    if (my_row < rows) best[my_row] = take > skip ? take : skip;
  }
}

void maxNonAdjacentSumRows(int rows, int cols, const int* values, int64_t* best) {
  if (rows <= 0) return;
  size_t count = (size_t)rows * (size_t)(cols > 0 ? cols : 0);
  int* dv = nullptr;
  int64_t* db = nullptr;
  cudaMalloc(&dv, (count > 0 ? count : 1) * sizeof(int));
  cudaMalloc(&db, (size_t)rows * sizeof(int64_t));
  if (count > 0) cudaMemcpy(dv, values, count * sizeof(int), cudaMemcpyHostToDevice);
  int device = 0, sms = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  if (sms <= 0) sms = 80;
  int rows_per_block = 32 * kWarpsPerBlock;
  int needed = (rows + rows_per_block - 1) / rows_per_block;
  int cap = sms * 16;
  int grid = needed < cap ? needed : cap;
  house_robber_kernel<<<grid, 32 * kWarpsPerBlock>>>(rows, cols > 0 ? cols : 0, dv, db);
  cudaMemcpy(best, db, (size_t)rows * sizeof(int64_t), cudaMemcpyDeviceToHost);
  cudaFree(dv);
  cudaFree(db);
}
