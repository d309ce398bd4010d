#include <cuda_runtime.h>
#include <cstddef>

constexpr int kPY = 4;                        // polynomials per thread
constexpr int kPX = 4;                        // points per thread
constexpr int kWarps = 8;
constexpr int kBlockPolys = kWarps * kPY;     // 32
constexpr int kBlockPoints = 32 * kPX;        // 128
constexpr int kDegChunk = 64;                 // coefficients staged per pass

// Step 1 (thread_mapping): block (bx, by) covers points [bx*128, +128) and
// polynomials [by*32, +32); lane l of warp w owns points bx*128 + l + 32 j
// (j < 4) and polynomials by*32 + w*4 + i (i < 4).
// Step 2 (shared_memory_tiling): the block's coefficients are staged in
// shared memory as sc[d][polynomial], 64 degrees at a time from the highest,
// so all 32 lanes of a warp read the same word (a broadcast) at each step.
// Step 3 (register_tiling): each thread holds a 4 x 4 tile of accumulators
// and its 4 sample values in registers, so one coefficient load feeds four
// multiply-adds and one x feeds four.
// Step 4 (instruction_level_parallelism): the 16 Horner chains are
// independent and interleaved, hiding the multiply-add latency.
// Step 5 (loop_unrolling): the 4 x 4 tile loops are fully unrolled.
// Step 6 (fast_math_intrinsics): every Horner step is one fmaf.
// Step 7 (memory_coalescing): for each polynomial a warp stores 32
// consecutive outputs (points l + 32 j), one 128-byte segment per store.
__global__ void poly_grid_kernel(int npoly, int deg, const float* __restrict__ coef, int nx,
                                 const float* __restrict__ x, float* __restrict__ y) {
  __shared__ float sc[kDegChunk][kBlockPolys];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  int k0 = blockIdx.x * kBlockPoints, p0 = blockIdx.y * kBlockPolys;
  float xv[kPX];
#pragma unroll
  for (int j = 0; j < kPX; ++j) {
    int k = k0 + lane + 32 * j;
    xv[j] = k < nx ? x[k] : 0.0f;
  }
  float acc[kPY][kPX];
#pragma unroll
  for (int i = 0; i < kPY; ++i)
#pragma unroll
    for (int j = 0; j < kPX; ++j) acc[i][j] = 0.0f;
  size_t stride = (size_t)deg + 1;
  bool first = true;
  for (int top = deg; top >= 0; top -= kDegChunk) {
    int lo = top - kDegChunk + 1 > 0 ? top - kDegChunk + 1 : 0;
    int cnt = top - lo + 1;
    __syncthreads();
    for (int e = threadIdx.x; e < cnt * kBlockPolys; e += blockDim.x) {
      int d = e / kBlockPolys, pp = e % kBlockPolys;
      int p = p0 + pp;
      sc[d][pp] = p < npoly ? coef[(size_t)p * stride + lo + d] : 0.0f;
    }
    __syncthreads();
    for (int d = cnt - 1; d >= 0; --d) {
      if (first) {  // the leading coefficient starts every chain
#pragma unroll
        for (int i = 0; i < kPY; ++i) {
          float c = sc[d][warp * kPY + i];
#pragma unroll
          for (int j = 0; j < kPX; ++j) acc[i][j] = c;
        }
        first = false;
        continue;
      }
#pragma unroll
      for (int i = 0; i < kPY; ++i) {
        float c = sc[d][warp * kPY + i];
#pragma unroll
        for (int j = 0; j < kPX; ++j) acc[i][j] = fmaf(acc[i][j], xv[j], c);
      }
    }
  }
#pragma unroll
  for (int i = 0; i < kPY; ++i) {
    int p = p0 + warp * kPY + i;
    if (p >= npoly) continue;
#pragma unroll
    for (int j = 0; j < kPX; ++j) {
      int k = k0 + lane + 32 * j;
      if (k < nx) y[(size_t)p * nx + k] = acc[i][j];
    }
  }
}

void evalPolynomialGrid(int npoly, int deg, const float* coef, int nx, const float* x, float* y) {
  if (npoly <= 0 || nx <= 0 || deg < 0) return;
  size_t cb = (size_t)npoly * (deg + 1) * sizeof(float);
  size_t yb = (size_t)npoly * nx * sizeof(float);
  float *dc = nullptr, *dx = nullptr, *dy = nullptr;
  cudaMalloc(&dc, cb);
  cudaMalloc(&dx, (size_t)nx * sizeof(float));
  cudaMalloc(&dy, yb);
  cudaMemcpy(dc, coef, cb, cudaMemcpyHostToDevice);
  cudaMemcpy(dx, x, (size_t)nx * sizeof(float), cudaMemcpyHostToDevice);
  int gy_total = (npoly + kBlockPolys - 1) / kBlockPolys;
  int gx = (nx + kBlockPoints - 1) / kBlockPoints;
  // gridDim.y is limited to 65535: launch in slices of polynomials.
  for (int ys = 0; ys < gy_total; ys += 65535) {
    int gy = gy_total - ys < 65535 ? gy_total - ys : 65535;
    int p_off = ys * kBlockPolys;
    poly_grid_kernel<<<dim3(gx, gy), 32 * kWarps>>>(npoly - p_off, deg, dc + (size_t)p_off * (deg + 1), nx, dx,
                                                     dy + (size_t)p_off * nx);
  }
  cudaMemcpy(y, dy, yb, cudaMemcpyDeviceToHost);
  cudaFree(dc);
  cudaFree(dx);
  cudaFree(dy);
}
