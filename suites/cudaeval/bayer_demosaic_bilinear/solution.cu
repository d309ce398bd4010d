#include <cuda_runtime.h>
#include <cstdint>

// Step 1 (thread_mapping): 2-D blocks of 16 x 16 threads cover the image.
// Step 2 (shared_memory_tiling): a block stages its 32 x 32 pixel tile plus a
// one-pixel apron (coordinates reflected as in the reference) in shared
// memory, so each raw sample is loaded from global memory once per block.
// Step 3 (register_tiling): each thread produces one 2x2 Bayer cell (four
// pixels) from the 4x4 window around it, read once from shared memory into
// registers and shared by the four pixels' formulas.
// Step 4 (warp_divergence_elimination): a cell always has red at its top
// left, green at top right and bottom left and blue at bottom right, so each
// thread runs the same straight-line code; the only branches left are the
// bounds checks of cells cut by an odd image edge.
constexpr int kDmCells = 16;             // cells per block side
constexpr int kDmTile = 2 * kDmCells;    // pixels per tile side
constexpr int kDmSide = kDmTile + 2;     // with apron

__device__ __forceinline__ int dm_reflect(int i, int n) { return i < 0 ? -i : (i >= n ? 2 * n - 2 - i : i); }

__device__ __forceinline__ void dm_store(uint8_t* rgb, int w, int h, int x, int y, int r, int g, int b) {
  if (x < w && y < h) {
    uint8_t* px = rgb + 3 * ((size_t)y * w + x);
    px[0] = (uint8_t)r;
    px[1] = (uint8_t)g;
    px[2] = (uint8_t)b;
  }
}

__global__ void demosaic_kernel(const uint8_t* __restrict__ raw, int w, int h, uint8_t* __restrict__ rgb) {
  __shared__ uint8_t tile[kDmSide][kDmSide];
  const int x0 = blockIdx.x * kDmTile - 1;
  const int y0 = blockIdx.y * kDmTile - 1;
  const int tid = threadIdx.y * kDmCells + threadIdx.x;
  for (int t = tid; t < kDmSide * kDmSide; t += kDmCells * kDmCells) {
    int r = t / kDmSide, c = t % kDmSide;
    // Rows/columns past h (w) feed only pixels outside the image; clamping
    // them to h (w) before reflecting keeps every index in range.
    int yy = dm_reflect(min(y0 + r, h), h);
    int xx = dm_reflect(min(x0 + c, w), w);
    tile[r][c] = raw[(size_t)yy * w + xx];
  }
  __syncthreads();
  // Window p[0..3][0..3]: tile rows/cols 2*ty .. 2*ty+3 (pixel rows y-1 .. y+2).
  const int tx = threadIdx.x, ty = threadIdx.y;
  int p[4][4];
#pragma unroll
  for (int i = 0; i < 4; ++i) {
#pragma unroll
    for (int j = 0; j < 4; ++j) p[i][j] = tile[2 * ty + i][2 * tx + j];
  }
  const int x = blockIdx.x * kDmTile + 2 * tx;  // even column
  const int y = blockIdx.y * kDmTile + 2 * ty;  // even row
  if (x >= w || y >= h) return;
  // Red site at p[1][1].
  dm_store(rgb, w, h, x, y, p[1][1], (p[0][1] + p[2][1] + p[1][0] + p[1][2] + 2) / 4,
           (p[0][0] + p[0][2] + p[2][0] + p[2][2] + 2) / 4);
  // Green site on a red row at p[1][2].
  dm_store(rgb, w, h, x + 1, y, (p[1][1] + p[1][3] + 1) / 2, p[1][2], (p[0][2] + p[2][2] + 1) / 2);
  // Green site on a blue row at p[2][1].
  dm_store(rgb, w, h, x, y + 1, (p[1][1] + p[3][1] + 1) / 2, p[2][1], (p[2][0] + p[2][2] + 1) / 2);
  // Blue site at p[2][2].
  dm_store(rgb, w, h, x + 1, y + 1, (p[1][1] + p[1][3] + p[3][1] + p[3][3] + 2) / 4,
           (p[1][2] + p[3][2] + p[2][1] + p[2][3] + 2) / 4, p[2][2]);
}

void demosaicBilinearRggb(const uint8_t* raw, int w, int h, uint8_t* rgb) {
  if (w < 2 || h < 2) return;
  size_t n = (size_t)w * h;
  uint8_t *draw = nullptr, *drgb = nullptr;
  cudaMalloc(&draw, n);
  cudaMalloc(&drgb, 3 * n);
  cudaMemcpy(draw, raw, n, cudaMemcpyHostToDevice);
  dim3 block(kDmCells, kDmCells);
  dim3 grid((w + kDmTile - 1) / kDmTile, (h + kDmTile - 1) / kDmTile);
  demosaic_kernel<<<grid, block>>>(draw, w, h, drgb);
  cudaMemcpy(rgb, drgb, 3 * n, cudaMemcpyDeviceToHost);
  cudaFree(draw);
  cudaFree(drgb);
}
