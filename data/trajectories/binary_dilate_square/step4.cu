#include <cuda_runtime.h>
#include <cstddef>
#include <cstdint>

#define BX 32
#define BY 8

// Separable dilation with shared-memory tiles: the row pass stages
// BY x (BX + 2r) mask bytes (apron of r columns each side), the column pass
// (BY + 2r) x BX tmp bytes, both in dynamic shared memory with zeros outside
// the image, so each byte is fetched from global memory once per block
// instead of 2r+1 times.
// Each thread stops scanning its window at the first set byte, since
// the result cannot change after that; threads outside the image return
// right after the block's only barrier.
__global__ void dilate_rows_exit(int w, int h, int r, const uint8_t* __restrict__ mask,
                      uint8_t* __restrict__ tmp) {
  extern __shared__ uint8_t tile[];
  int tw = BX + 2 * r;
  int x0 = blockIdx.x * BX, y0 = blockIdx.y * BY;
  int tid = threadIdx.y * BX + threadIdx.x;
  for (int e = tid; e < BY * tw; e += BX * BY) {
    int ly = e / tw, lx = e % tw;
    int gx = x0 - r + lx, gy = y0 + ly;
    tile[e] = (gx >= 0 && gx < w && gy < h) ? mask[(size_t)gy * w + gx] : 0;
  }
  __syncthreads();
  int x = x0 + threadIdx.x, y = y0 + threadIdx.y;
  if (x >= w || y >= h) return;
  const uint8_t* row = tile + threadIdx.y * tw + threadIdx.x;
  uint8_t v = 0;
  for (int k = 0; k <= 2 * r; ++k) {
    if (row[k] != 0) {
      v = 1;
      break;  // the answer is known: stop scanning the window
    }
  }
  tmp[(size_t)y * w + x] = v;
}

__global__ void dilate_cols_exit(int w, int h, int r, const uint8_t* __restrict__ tmp,
                      uint8_t* __restrict__ out) {
  extern __shared__ uint8_t tile[];
  int th = BY + 2 * r;
  int x0 = blockIdx.x * BX, y0 = blockIdx.y * BY;
  int tid = threadIdx.y * BX + threadIdx.x;
  for (int e = tid; e < th * BX; e += BX * BY) {
    int ly = e / BX, lx = e % BX;
    int gx = x0 + lx, gy = y0 - r + ly;
    tile[e] = (gx < w && gy >= 0 && gy < h) ? tmp[(size_t)gy * w + gx] : 0;
  }
  __syncthreads();
  int x = x0 + threadIdx.x, y = y0 + threadIdx.y;
  if (x >= w || y >= h) return;
  const uint8_t* col = tile + threadIdx.y * BX + threadIdx.x;
  uint8_t v = 0;
  for (int k = 0; k <= 2 * r; ++k) {
    if (col[k * BX] != 0) {
      v = 1;
      break;
    }
  }
  out[(size_t)y * w + x] = v;
}

void dilate_binary_box(int w, int h, int r, const uint8_t* mask, uint8_t* out) {
  if (w <= 0 || h <= 0) return;
  size_t bytes = (size_t)w * h;
  uint8_t *d_in, *d_out;
  cudaMalloc(&d_in, bytes);
  cudaMalloc(&d_out, bytes);
  cudaMemcpy(d_in, mask, bytes, cudaMemcpyHostToDevice);
  if (r < 0) {  // empty window: nothing is set
    cudaMemset(d_out, 0, bytes);
  } else {
    if (r > w && r > h) r = (w > h ? w : h);  // a wider window adds only unset pixels
    uint8_t* d_tmp;
    cudaMalloc(&d_tmp, bytes);
    dim3 block(BX, BY);
    dim3 grid((w + BX - 1) / BX, (h + BY - 1) / BY);
    dilate_rows_exit<<<grid, block, (size_t)BY * (BX + 2 * r)>>>(w, h, r, d_in, d_tmp);
    dilate_cols_exit<<<grid, block, (size_t)(BY + 2 * r) * BX>>>(w, h, r, d_tmp, d_out);
    cudaFree(d_tmp);
  }
  cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_in);
  cudaFree(d_out);
}
