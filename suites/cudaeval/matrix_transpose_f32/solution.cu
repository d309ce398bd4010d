#include <cuda_runtime.h>
#include <cstddef>

// Classic tiled transpose. A 32 x 8 block moves one 32 x 32 tile: it reads the
// tile row by row (threadIdx.x walks the input row: coalesced), stores it in
// shared memory, and writes it back row by row of the *output* (threadIdx.x
// walks the output row: coalesced). The column read tile[tx][ty + k] would hit
// one bank 32 times without the +1 padding.
#define TILE 32
#define BLOCK_ROWS 8

__global__ void transpose_tiled_kernel(int rows, int cols, const float* __restrict__ in, float* __restrict__ out) {
  __shared__ float tile[TILE][TILE + 1];
  int bx = blockIdx.x * TILE;  // input column offset
  int by = blockIdx.y * TILE;  // input row offset
  int tx = threadIdx.x, ty = threadIdx.y;

  int j = bx + tx;
#pragma unroll
  for (int k = 0; k < TILE; k += BLOCK_ROWS) {
    int i = by + ty + k;
    if (i < rows && j < cols) tile[ty + k][tx] = in[(size_t)i * cols + j];
  }
  __syncthreads();

  // Output element (r, c) of the transposed tile: r = input column, c = input row.
  int c = by + tx;
#pragma unroll
  for (int k = 0; k < TILE; k += BLOCK_ROWS) {
    int r = bx + ty + k;
    if (r < cols && c < rows) out[(size_t)r * rows + c] = tile[tx][ty + k];
  }
}

void transposeF32(int rows, int cols, const float* in, float* out) {
  if (rows <= 0 || cols <= 0) return;
  size_t bytes = (size_t)rows * (size_t)cols * sizeof(float);
  float *din = nullptr, *dout = nullptr;
  cudaMalloc(&din, bytes);
  cudaMalloc(&dout, bytes);
  cudaMemcpy(din, in, bytes, cudaMemcpyHostToDevice);
  dim3 block(TILE, BLOCK_ROWS);
  dim3 grid((unsigned)((cols + TILE - 1) / TILE), (unsigned)((rows + TILE - 1) / TILE));
  transpose_tiled_kernel<<<grid, block>>>(rows, cols, din, dout);
  cudaMemcpy(out, dout, bytes, cudaMemcpyDeviceToHost);
  cudaFree(din);
  cudaFree(dout);
}
