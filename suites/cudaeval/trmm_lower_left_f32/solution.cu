#include <cuda_runtime.h>

// Step 1 (thread_mapping): each entry of the result is owned by one thread of
// a 64 x 64 output tile (256 threads, 4 x 4 entries each).
// Step 2 (algorithmic_restructuring): the reference overwrites B bottom-up so
// each row still sees the original rows above it, a serial dependency. Here
// the product goes to a separate buffer, which removes it; and tile row ti
// only loops over k-chunks p < (ti + 1) * 64, skipping L's zero upper tiles
// (entries with p > i inside the diagonal tile are masked to 0).
// Step 3 (shared_memory_tiling): 16-wide k-chunks of L's rows and of B's rows
// are staged in shared memory and reused by the whole tile.
// Step 4 (register_tiling): each thread holds a 4 x 4 block of accumulators.
// Step 5 (bank_conflict_avoidance): the L chunk is stored transposed
// (sL[p][row]); a warp's stores cover 16 p values of two rows, which with
// 64-float rows would share one bank per row. Rows are padded to 66 floats,
// putting (p, row) on bank 2p + row: the 32 stores are conflict-free.
// Step 6 (loop_unrolling): the chunk loop and the 4 x 4 loops are unrolled.
// Step 7 (vectorized_memory_access): when m % 4 == 0 the B chunk (16 rows x
// 64 columns) is loaded as float4.
constexpr int kT = 64;
constexpr int kK = 16;

__global__ void trmm_kernel(int n, int m, float alpha, const float* __restrict__ L,
                            const float* __restrict__ B, float* __restrict__ out) {
  __shared__ float sL[kK][kT + 2];
  __shared__ __align__(16) float sB[kK][kT];
  int i0 = blockIdx.y * kT, c0 = blockIdx.x * kT;
  int tx = threadIdx.x & 15, ty = threadIdx.x >> 4;
  bool vec = (m % 4) == 0;
  float acc[4][4];
#pragma unroll
  for (int a = 0; a < 4; ++a)
#pragma unroll
    for (int c = 0; c < 4; ++c) acc[a][c] = 0.0f;
  int pend = min(n, i0 + kT);  // L[i][p] = 0 for p > i
  for (int p0 = 0; p0 < pend; p0 += kK) {
    for (int e = threadIdx.x; e < kT * kK; e += blockDim.x) {
      int r = e / kK, p = e - r * kK;
      int gi = i0 + r, gp = p0 + p;
      sL[p][r] = (gi < n && gp <= gi) ? __ldg(&L[(long long)gi * n + gp]) : 0.0f;
    }
    if (vec) {
      for (int e = threadIdx.x; e < kK * (kT / 4); e += blockDim.x) {
        int p = e / (kT / 4), q = e - p * (kT / 4);
        int gp = p0 + p, gc = c0 + 4 * q;
        float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
        if (gp < n && gc < m)
          v = __ldg(reinterpret_cast<const float4*>(B + (long long)gp * m + gc));
        *reinterpret_cast<float4*>(&sB[p][4 * q]) = v;
      }
    } else {
      for (int e = threadIdx.x; e < kK * kT; e += blockDim.x) {
        int p = e / kT, q = e - p * kT;
        int gp = p0 + p, gc = c0 + q;
        sB[p][q] = (gp < n && gc < m) ? __ldg(&B[(long long)gp * m + gc]) : 0.0f;
      }
    }
    __syncthreads();
#pragma unroll
    for (int p = 0; p < kK; ++p) {
      float l[4], bv[4];
#pragma unroll
      for (int a = 0; a < 4; ++a) {
        l[a] = sL[p][ty * 4 + a];
        bv[a] = sB[p][tx * 4 + a];
      }
#pragma unroll
      for (int a = 0; a < 4; ++a)
#pragma unroll
        for (int c = 0; c < 4; ++c) acc[a][c] += l[a] * bv[c];
    }
    __syncthreads();
  }
#pragma unroll
  for (int a = 0; a < 4; ++a) {
    int i = i0 + ty * 4 + a;
#pragma unroll
    for (int c = 0; c < 4; ++c) {
      int col = c0 + tx * 4 + c;
      if (i < n && col < m) out[(long long)i * m + col] = alpha * acc[a][c];
    }
  }
}

void trmmLowerLeft(int n, int m, float alpha, const float* Lmat, float* B) {
  if (n <= 0 || m <= 0) return;
  size_t lb = (size_t)n * n * sizeof(float);
  size_t bb = (size_t)n * m * sizeof(float);
  float *d_l = nullptr, *d_b = nullptr, *d_out = nullptr;
  cudaMalloc(&d_l, lb);
  cudaMalloc(&d_b, bb);
  cudaMalloc(&d_out, bb);
  cudaMemcpy(d_l, Lmat, lb, cudaMemcpyHostToDevice);
  cudaMemcpy(d_b, B, bb, cudaMemcpyHostToDevice);
  dim3 grid((m + kT - 1) / kT, (n + kT - 1) / kT);
  trmm_kernel<<<grid, 256>>>(n, m, alpha, d_l, d_b, d_out);
  cudaMemcpy(B, d_out, bb, cudaMemcpyDeviceToHost);
  cudaFree(d_l);
  cudaFree(d_b);
  cudaFree(d_out);
}
