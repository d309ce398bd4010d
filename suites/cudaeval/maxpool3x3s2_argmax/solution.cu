#include <cuda_runtime.h>

// Step 1 (thread_mapping): one thread per pooled output (oy, ox) of a plane;
// blockIdx.z (strided) walks the planes.
// Step 2 (shared_memory_tiling): a block of 16 x 16 outputs needs the input
// patch rows 2*oy0 - 1 .. 2*oy0 + 31 and the same columns: 33 x 33 floats,
// loaded once (coalesced along rows) into shared memory; each input is then
// read by up to four overlapping windows from shared memory.
// Step 3 (loop_unrolling): the 3 x 3 window scan is fully unrolled, keeping
// the reference's row-major order and strict '>' so ties resolve alike.
constexpr int kTile = 16;
constexpr int kPatch = 2 * kTile + 1;

__global__ void maxpool_kernel(int planes, int h, int w, int oh, int ow,
                               const float* __restrict__ in, float* __restrict__ out,
                               int* __restrict__ idx) {
  __shared__ float patch[kPatch][kPatch + 1];
  int oy0 = blockIdx.y * kTile, ox0 = blockIdx.x * kTile;
  int y0 = 2 * oy0 - 1, x0 = 2 * ox0 - 1;
  int tid = threadIdx.y * kTile + threadIdx.x;
  for (int p = blockIdx.z; p < planes; p += gridDim.z) {
    const float* src = in + (long long)p * h * w;
    __syncthreads();  // the previous plane's readers are done
    for (int k = tid; k < kPatch * kPatch; k += kTile * kTile) {
      int py = k / kPatch, px = k - py * kPatch;
      int y = y0 + py, x = x0 + px;
      if (y >= 0 && y < h && x >= 0 && x < w) patch[py][px] = __ldg(&src[(long long)y * w + x]);
    }
    __syncthreads();
    int oy = oy0 + threadIdx.y, ox = ox0 + threadIdx.x;
    if (oy < oh && ox < ow) {
      float best = 0.0f;
      int best_i = -1;
#pragma unroll
      for (int ky = 0; ky < 3; ++ky) {
        int y = 2 * oy - 1 + ky;
#pragma unroll
        for (int kx = 0; kx < 3; ++kx) {
          int x = 2 * ox - 1 + kx;
          if (y >= 0 && y < h && x >= 0 && x < w) {
            float v = patch[2 * threadIdx.y + ky][2 * threadIdx.x + kx];
            if (best_i < 0 || v > best) {
              best = v;
              best_i = y * w + x;
            }
          }
        }
      }
      long long o = ((long long)p * oh + oy) * ow + ox;
      out[o] = best;
      idx[o] = best_i;
    }
  }
}

void maxPool3x3s2Argmax(int planes, int h, int w, const float* in, float* out, int* idx) {
  if (planes <= 0 || h <= 0 || w <= 0) return;
  int oh = (h - 1) / 2 + 1, ow = (w - 1) / 2 + 1;
  size_t in_elems = (size_t)planes * h * w;
  size_t out_elems = (size_t)planes * oh * ow;
  float *d_in = nullptr, *d_out = nullptr;
  int* d_idx = nullptr;
  cudaMalloc(&d_in, in_elems * sizeof(float));
  cudaMalloc(&d_out, out_elems * sizeof(float));
  cudaMalloc(&d_idx, out_elems * sizeof(int));
  cudaMemcpy(d_in, in, in_elems * sizeof(float), cudaMemcpyHostToDevice);
  dim3 block(kTile, kTile);
  dim3 grid((ow + kTile - 1) / kTile, (oh + kTile - 1) / kTile, planes < 65535 ? planes : 65535);
  maxpool_kernel<<<grid, block>>>(planes, h, w, oh, ow, d_in, d_out, d_idx);
  cudaMemcpy(out, d_out, out_elems * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(idx, d_idx, out_elems * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d_in);
  cudaFree(d_out);
  cudaFree(d_idx);
}
