#include <cuda_runtime.h>

// Step 1 (thread_mapping): a block owns 64 portfolios x 64 factors of the
// exposure matrix E = W B; each of its 256 threads 4 portfolios x 4 factors.
// Step 2 (shared_memory_tiling): 16-asset chunks of W (the block's 64
// portfolios) and of B (the block's 64 factors) and of D are staged in
// shared memory and reused by the whole tile.
// Step 3 (register_tiling): each thread keeps its 4 x 4 exposures in
// registers: 8 shared reads feed 16 FMAs per asset.
// Step 4 (bank_conflict_avoidance): W's chunk is stored transposed
// (sW[asset][portfolio]); a warp's stores cover 16 assets of two portfolios,
// which with 64-float rows would share one bank per portfolio; rows padded to
// 66 floats put (asset, portfolio) on bank 2*asset + portfolio.
// Step 5 (loop_unrolling): the 16-asset chunk loop and the 4 x 4 loops are
// unrolled.
// Step 6 (kernel_fusion): E is never stored: each thread squares and sums its
// exposures per portfolio, and blocks of the first factor tile also add the
// specific risk sum W^2 D from the staged chunks, all in the same kernel.
// Step 7 (warp_shuffle_reduction): the 16 lanes that share a portfolio row
// (consecutive lanes) combine their partial sums with XOR shuffles.
// Step 8 (atomic_operations): factor tiles' contributions to var[p] meet
// through double atomicAdd (var is zeroed by a first small kernel).
constexpr int kT = 64;
constexpr int kK = 16;

__global__ void zero_kernel(int n, double* __restrict__ v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = 0.0;
}

__global__ void factor_var_kernel(int P, int m, int k, const float* __restrict__ W,
                                  const float* __restrict__ B, const float* __restrict__ D,
                                  double* __restrict__ var) {
  __shared__ float sW[kK][kT + 2];
  __shared__ float sB[kK][kT];
  __shared__ float sD[kK];
  int p0 = blockIdx.y * kT, f0 = blockIdx.x * kT;
  int tx = threadIdx.x & 15, ty = threadIdx.x >> 4;
  bool specific = blockIdx.x == 0;
  float acc[4][4];
#pragma unroll
  for (int a = 0; a < 4; ++a)
#pragma unroll
    for (int c = 0; c < 4; ++c) acc[a][c] = 0.0f;
  float spec[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (int i0 = 0; i0 < m; i0 += kK) {
    for (int e = threadIdx.x; e < kT * kK; e += blockDim.x) {
      int row = e / kK, i = e - row * kK;  // W: portfolio row, asset i
      int gp = p0 + row, gi = i0 + i;
      sW[i][row] = (gp < P && gi < m) ? __ldg(&W[(long long)gp * m + gi]) : 0.0f;
      int bi = e / kT, f = e - bi * kT;  // B: asset bi, factor f
      int gbi = i0 + bi, gf = f0 + f;
      sB[bi][f] = (gbi < m && gf < k) ? __ldg(&B[(long long)gbi * k + gf]) : 0.0f;
    }
    if (threadIdx.x < kK)
      sD[threadIdx.x] = i0 + threadIdx.x < m ? __ldg(&D[i0 + threadIdx.x]) : 0.0f;
    __syncthreads();
#pragma unroll
    for (int i = 0; i < kK; ++i) {
      float w[4], b[4];
#pragma unroll
      for (int a = 0; a < 4; ++a) {
        w[a] = sW[i][ty * 4 + a];
        b[a] = sB[i][tx * 4 + a];
      }
#pragma unroll
      for (int a = 0; a < 4; ++a)
#pragma unroll
        for (int c = 0; c < 4; ++c) acc[a][c] += w[a] * b[c];
    }
    if (specific) {  // lane tx covers asset i0 + tx of the chunk
      float d = sD[tx];
#pragma unroll
      for (int a = 0; a < 4; ++a) {
        float w = sW[tx][ty * 4 + a];
        spec[a] += w * w * d;
      }
    }
    __syncthreads();
  }
#pragma unroll
  for (int a = 0; a < 4; ++a) {
    double part = spec[a];
#pragma unroll
    for (int c = 0; c < 4; ++c) part += (double)acc[a][c] * acc[a][c];
    part += __shfl_xor_sync(0xffffffffu, part, 1);
    part += __shfl_xor_sync(0xffffffffu, part, 2);
    part += __shfl_xor_sync(0xffffffffu, part, 4);
    part += __shfl_xor_sync(0xffffffffu, part, 8);
    int p = p0 + ty * 4 + a;
    if (tx == 0 && p < P) atomicAdd(&var[p], part);
  }
}

void factorPortfolioVariance(int P, int m, int k, const float* W, const float* B, const float* D,
                             double* var) {
  if (P <= 0) return;
  int mm = m > 0 ? m : 0, kk = k > 0 ? k : 0;
  size_t we = (size_t)P * mm, be = (size_t)mm * kk;
  float *d_w = nullptr, *d_b = nullptr, *d_d = nullptr;
  double* d_var = nullptr;
  cudaMalloc(&d_w, (we > 0 ? we : 1) * sizeof(float));
  cudaMalloc(&d_b, (be > 0 ? be : 1) * sizeof(float));
  cudaMalloc(&d_d, (size_t)(mm > 0 ? mm : 1) * sizeof(float));
  cudaMalloc(&d_var, (size_t)P * sizeof(double));
  if (we > 0) cudaMemcpy(d_w, W, we * sizeof(float), cudaMemcpyHostToDevice);
  if (be > 0) cudaMemcpy(d_b, B, be * sizeof(float), cudaMemcpyHostToDevice);
  if (mm > 0) cudaMemcpy(d_d, D, (size_t)mm * sizeof(float), cudaMemcpyHostToDevice);
  zero_kernel<<<(P + 255) / 256, 256>>>(P, d_var);
  if (mm > 0) {
    int ftiles = kk > 0 ? (kk + kT - 1) / kT : 1;  // one tile still adds the specific risk
    dim3 grid(ftiles, (P + kT - 1) / kT);
    factor_var_kernel<<<grid, 256>>>(P, mm, kk, d_w, d_b, d_d, d_var);
  }
  cudaMemcpy(var, d_var, (size_t)P * sizeof(double), cudaMemcpyDeviceToHost);
  cudaFree(d_w);
  cudaFree(d_b);
  cudaFree(d_d);
  cudaFree(d_var);
}
