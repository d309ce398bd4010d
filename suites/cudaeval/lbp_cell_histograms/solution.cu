#include <cuda_runtime.h>
#include <cstdint>

// Step 1 (thread_mapping): one block per cell; its 256 threads stride over
// the cell's pixels.
// Step 2 (shared_memory_tiling): the block stages the cell plus a one-pixel
// apron (clamped coordinates, as the reference) in shared memory, so each
// pixel is loaded once although nine LBP codes read it.
// Step 3 (kernel_fusion): the LBP code is binned as soon as it is computed:
// the code image of the two-pass reference never exists.
// Step 4 (atomic_operations): threads of a block increment shared bins with
// atomicAdd.
// Step 5 (atomic_aggregation): each warp counts into its own 256-bin
// sub-histogram (textures repeat a few codes, so one histogram would make
// warps contend on them); at the end thread b sums the eight sub-histograms
// of bin b and writes the cell's bin directly: no global atomics and no
// zeroing pass, since every bin of every cell is written once.
// Step 6 (warp_divergence_elimination): the eight comparisons set their
// bits arithmetically (code |= (nb >= centre) << k), no branches.
// Step 7 (loop_unrolling): the neighbour loop is fully unrolled with
// compile-time offsets into the tile.
constexpr int kLbpThreads = 256;
constexpr int kLbpWarps = kLbpThreads / 32;

__global__ void lbp_cells_kernel(const uint8_t* __restrict__ img, int w, int h, int c, int* __restrict__ hist) {
  extern __shared__ int lbp_smem[];
  int* sub = lbp_smem;                                                  // kLbpWarps x 256
  uint8_t* tile = reinterpret_cast<uint8_t*>(lbp_smem + kLbpWarps * 256);  // (c+2) x (c+2)
  const int side = c + 2;
  const int x0 = blockIdx.x * c, y0 = blockIdx.y * c;
  const int cw = min(c, w - x0), ch = min(c, h - y0);  // this cell's size
  for (int i = threadIdx.x; i < kLbpWarps * 256; i += kLbpThreads) sub[i] = 0;
  for (int t = threadIdx.x; t < (ch + 2) * side; t += kLbpThreads) {
    int r = t / side, col = t % side;
    int yy = min(max(y0 - 1 + r, 0), h - 1);
    int xx = min(max(x0 - 1 + col, 0), w - 1);
    tile[r * side + col] = img[(long)yy * w + xx];
  }
  __syncthreads();
  int* mine = sub + (threadIdx.x >> 5) * 256;
  for (int p = threadIdx.x; p < cw * ch; p += kLbpThreads) {
    const int py = p / cw, px = p % cw;
    const uint8_t* t = tile + (py + 1) * side + (px + 1);  // the centre
    const int centre = t[0];
    const int off[8] = {-side - 1, -side, -side + 1, 1, side + 1, side, side - 1, -1};
    int code = 0;
#pragma unroll
    for (int k = 0; k < 8; ++k) code |= (t[off[k]] >= centre) << k;
    atomicAdd(&mine[code], 1);
  }
  __syncthreads();
  const int b = threadIdx.x;  // 256 threads, 256 bins
  int total = 0;
#pragma unroll
  for (int wp = 0; wp < kLbpWarps; ++wp) total += sub[wp * 256 + b];
  hist[((long)blockIdx.y * gridDim.x + blockIdx.x) * 256 + b] = total;
}

void lbpCellHistograms(const uint8_t* img, int w, int h, int c, int* hist) {
  if (w <= 0 || h <= 0 || c <= 0) return;
  const int cells_x = (w + c - 1) / c, cells_y = (h + c - 1) / c;
  size_t n = (size_t)w * h;
  size_t hist_len = (size_t)cells_x * cells_y * 256;
  uint8_t* dimg = nullptr;
  int* dhist = nullptr;
  cudaMalloc(&dimg, n);
  cudaMalloc(&dhist, hist_len * sizeof(int));
  cudaMemcpy(dimg, img, n, cudaMemcpyHostToDevice);
  size_t smem = kLbpWarps * 256 * sizeof(int) + (size_t)(c + 2) * (c + 2);
  if (smem > 48 * 1024) cudaFuncSetAttribute(lbp_cells_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
  lbp_cells_kernel<<<dim3(cells_x, cells_y), kLbpThreads, smem>>>(dimg, w, h, c, dhist);
  cudaMemcpy(hist, dhist, hist_len * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dimg);
  cudaFree(dhist);
}
